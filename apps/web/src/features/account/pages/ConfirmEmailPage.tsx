import { useCallback } from 'react';
import { useParams } from 'react-router';
import { useDocumentTitle } from '#web/components/use-document-title.ts';
import { confirmEmail } from '../api.ts';
import { LinkResultPage } from '../components/LinkResultPage.tsx';

/** The link of the registration e-mail: activates the account. */
export default function ConfirmEmailPage() {
  useDocumentTitle('Email Confirmation');
  const { token = '' } = useParams();
  const use = useCallback(() => confirmEmail(token), [token]);
  return (
    <LinkResultPage
      use={use}
      busyLabel="Confirming your email…"
      failedTitle="Email Confirmation"
      success={() => (
        <>
          <h1 className="h3 text-success mb-3">Email Confirmed</h1>
          <p className="fs-5 mb-2">Thank you for confirming your email!</p>
          <p className="mb-0">Your account is now active.</p>
        </>
      )}
    />
  );
}
