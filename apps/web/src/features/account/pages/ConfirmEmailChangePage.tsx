import { useCallback } from 'react';
import { useParams } from 'react-router';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { confirmEmailChange } from '../api.ts';
import { LinkResultPage } from '../components/LinkResultPage.tsx';

/** The link sent to a new address: the account signs in with it from now on. */
export default function ConfirmEmailChangePage() {
  useDocumentTitle('New Email Address');
  const { token = '' } = useParams();
  const use = useCallback(() => confirmEmailChange(token), [token]);
  return (
    <LinkResultPage
      use={use}
      busyLabel="Changing your email address…"
      failedTitle="New Email Address"
      success={(message) => (
        <>
          <h1 className="h3 text-success mb-3">Email Address Changed</h1>
          <p className="fs-5 mb-0">{message}</p>
        </>
      )}
    />
  );
}
