/** A field's messages (the API's, or the form's own), referenced by the field's aria-describedby. */
export function FieldMessages({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p id={id} class="mock-field-error">
      {messages.join('; ')}
    </p>
  );
}
