// A new password typed twice (Settings → Account, an admin's reset link): the two fields, and what is
// wrong with them before anything is sent (sign-up's rules, and the two the same).
import { fieldErrors, PasswordSchema } from "../../../../protocol";

type Props = {
  value: string;
  again: string;
  onValue: (value: string) => void;
  onAgain: (value: string) => void;
  /** The page's class for a label around its input. */
  fieldClass: string | undefined;
  /** data-testid of the first input; the second's adds `-again`. */
  testid: string;
};

export function NewPasswordFields({ value, again, onValue, onAgain, fieldClass, testid }: Props) {
  return (
    <>
      <label class={fieldClass}>
        <span>New password</span>
        <input
          type="password"
          autoComplete="new-password"
          value={value}
          onInput={(e) => onValue(e.currentTarget.value)}
          data-testid={testid}
        />
      </label>
      <label class={fieldClass}>
        <span>New password again</span>
        <input
          type="password"
          autoComplete="new-password"
          value={again}
          onInput={(e) => onAgain(e.currentTarget.value)}
          data-testid={`${testid}-again`}
        />
      </label>
    </>
  );
}

/** What is wrong with a new password typed twice, in words; null when it may be sent. */
export function newPasswordProblem(value: string, again: string): string | null {
  const rules = PasswordSchema.safeParse(value);
  if (!rules.success) return `New password: ${fieldErrors(rules.error)._ ?? "not valid"}`;
  return value === again ? null : "The two new passwords are not the same";
}
