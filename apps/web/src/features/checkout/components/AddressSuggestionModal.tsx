import type { AddressSuggestion } from '@store/shared';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { suggestionPostalCode } from '../shipping-form.ts';

/** 'Select Shipping Address': the validated address as a radio, Save or Close. */
export function AddressSuggestionModal({
  suggestion,
  saving,
  onSave,
  onClose,
}: {
  suggestion: AddressSuggestion | null;
  saving: boolean;
  onSave: (s: AddressSuggestion) => void;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState(true);
  const s = suggestion;
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
            <legend className="fs-6 mb-2">Suggested address</legend>
            <Form.Check
              type="radio"
              id="suggested-address"
              name="suggested-address"
              checked={chosen}
              onChange={() => setChosen(true)}
              label={
                <span data-testid="suggested-address">
                  {s.Address1}
                  {s.Address2 && <>, {s.Address2}</>}
                  <br />
                  {s.City}, {s.State} {suggestionPostalCode(s)}
                  {s.Country && <>, {s.Country}</>}
                </span>
              }
            />
          </fieldset>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button disabled={!chosen || saving || !s} onClick={() => s && onSave(s)}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
