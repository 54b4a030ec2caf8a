/** The search box above a management list (its label is for assistive tech only). */
export function SearchField({
  id,
  label,
  placeholder,
  value,
  onChange,
  testId,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
  testId?: string;
}) {
  return (
    <div className="min-w-0 flex-1 basis-56">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        data-testid={testId}
        className="block w-full rounded-md border border-border-strong/70 bg-surface px-3 py-2 text-sm text-fg placeholder:text-fg-muted/80 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring"
      />
    </div>
  );
}
