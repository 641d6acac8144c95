// The launch of a set of runs from the New run form (a queues sweep, a synchronous commit ladder): its button, a hint
// while the form does not parse, and the server's refusal.
export function SetLaunch({
  label,
  launching,
  disabled,
  ready,
  error,
  onClick,
  testId,
  className,
}: {
  label: string;
  launching: boolean;
  disabled: boolean;
  ready: boolean;
  error: string | null;
  onClick: () => void;
  testId: string;
  className?: string;
}) {
  return (
    <>
      <button type="button" className={className} onClick={onClick} disabled={disabled} data-testid={testId}>
        {launching ? "Launching…" : label}
      </button>
      {!ready && <p className="hint">Fix the marked fields above first.</p>}
      {error && (
        <div className="alert bad small" role="alert">
          {error}
        </div>
      )}
    </>
  );
}
