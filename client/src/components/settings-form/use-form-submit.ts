// A settings form's submit state: whether it is being sent, the errors shown by its inputs and the one
// line for the rest. `refuse` divides a 400's `fields` between them (splitErrors); `submit` wraps the
// handler so a second press while one is on its way does nothing and the page does not reload.
import { useState } from "preact/hooks";
import type { z } from "zod";
import { fieldErrors } from "../../../../protocol";
import type { ApiResult } from "../../lib/api";
import { splitErrors } from "./field";

type Refusal = { message: string; fields: Record<string, string> };

export function useFormSubmit(shown: readonly string[]) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  return {
    errors,
    formError,
    saving,
    setErrors,
    setFormError,
    /** The inputs' errors and the form's line from a refusal; `sentence` replaces the line (a 409). */
    refuse(error: Refusal, sentence?: string) {
      const split = splitErrors(error, shown);
      setErrors(split.fields);
      setFormError(sentence ?? split.form);
    },
    clear() {
      setErrors({});
      setFormError(null);
    },
    /** Runs a request with the form marked as sending. */
    async send<T>(request: () => Promise<T>): Promise<T> {
      setSaving(true);
      try {
        return await request();
      } finally {
        setSaving(false);
      }
    },
    /**
     * Sends what the protocol's schema accepted (else its errors show by the fields): a refusal shows by
     * its fields, a conflict (409: a name taken, too many) in its own sentence. The answer, or null.
     */
    async create<I, T>(
      check: z.ZodSafeParseResult<I>,
      request: (input: I) => Promise<ApiResult<T>>,
    ): Promise<T | null> {
      if (!check.success) {
        this.refuse({ message: "Check the fields above", fields: fieldErrors(check.error) });
        return null;
      }
      const result = await this.send(() => request(check.data));
      if (!result.ok) {
        this.refuse(result.error, result.error.status === 409 ? result.error.message : undefined);
        return null;
      }
      this.clear();
      return result.data;
    },
    /** The form's onSubmit. */
    submit(handler: () => Promise<unknown>) {
      return (event: Event) => {
        event.preventDefault();
        if (!saving) void handler();
      };
    },
  };
}

export type FormSubmit = ReturnType<typeof useFormSubmit>;
