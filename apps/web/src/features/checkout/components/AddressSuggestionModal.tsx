import type { AddressSuggestion } from '@store/shared';
import { countryName } from '@store/shared';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { suggestionPostalCode, tidySuggestion } from '../shipping-form.ts';
import type { CheckoutAddress } from '../store.ts';

export type AddressChoice = 'suggested' | 'entered';

function AddressLines(a: {
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal: string;
  country: string;
}) {
  return (
    <>
      {a.line1}
      {a.line2 && <>, {a.line2}</>}
      <br />
      {a.city}, {a.state} {a.postal}
      {a.country && <>, {countryName(a.country)}</>}
    </>
  );
}

/**
 * 'Select Shipping Address': the validated suggestion or the address as the shopper entered it (its case
 * tidied), as radios; Save goes on with the chosen one, Close goes back to the form.
 */
export function AddressSuggestionModal({
  suggestion,
  entered,
  saving,
  onSave,
  onClose,
}: {
  suggestion: AddressSuggestion | null;
  entered: CheckoutAddress | null;
  saving: boolean;
  onSave: (choice: AddressChoice) => void;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState<AddressChoice>('suggested');
  useEffect(() => {
    if (suggestion) setChosen('suggested');
  }, [suggestion]);
  const s = suggestion && tidySuggestion(suggestion);
  return (
    <Modal show={s !== null} onHide={onClose} centered aria-labelledby="suggestion-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="suggestion-title" as="h2" className="h5">
          Select Shipping Address
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {s && (
          <fieldset>
            <legend className="fs-6 mb-2">Which address should we ship to?</legend>
            <Form.Check
              type="radio"
              id="suggested-address"
              name="address-choice"
              className="mb-3"
              checked={chosen === 'suggested'}
              onChange={() => setChosen('suggested')}
              label={
                <>
                  <strong className="d-block">Suggested address</strong>
                  <span data-testid="suggested-address">
                    <AddressLines
                      line1={s.Address1}
                      line2={s.Address2}
                      city={s.City}
                      state={s.State}
                      postal={suggestionPostalCode(s)}
                      country={s.Country ?? ''}
                    />
                  </span>
                </>
              }
            />
            {entered && (
              <Form.Check
                type="radio"
                id="entered-address"
                name="address-choice"
                checked={chosen === 'entered'}
                onChange={() => setChosen('entered')}
                label={
                  <>
                    <strong className="d-block">Keep what I entered</strong>
                    <span data-testid="entered-address">
                      <AddressLines
                        line1={entered.address1}
                        line2={entered.address2}
                        city={entered.city}
                        state={entered.state}
                        postal={entered.postalCode}
                        country={entered.country}
                      />
                    </span>
                  </>
                }
              />
            )}
          </fieldset>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button disabled={saving || !s} onClick={() => onSave(chosen)}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
