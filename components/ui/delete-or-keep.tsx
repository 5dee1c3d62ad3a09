import { Button } from "./button";

/** The two answers of a delete confirmation: delete (held while the deletion runs) or keep it. */
export function DeleteOrKeep({
  label,
  pending,
  disabled = false,
  onDelete,
  onKeep,
  className,
}: {
  label: string;
  pending: boolean;
  disabled?: boolean;
  onDelete: () => void;
  onKeep: () => void;
  className: string;
}) {
  return (
    <div className={className}>
      <Button variant="danger" disabled={disabled || pending} onClick={onDelete}>
        {pending ? "Deleting…" : label}
      </Button>
      <Button variant="secondary" onClick={onKeep}>
        Keep it
      </Button>
    </div>
  );
}
