// The settings-form kit: what the forms of Settings → Models (a provider), Settings → Tools (an MCP
// server), Settings → Web (a search provider) and the Schedules page share. A labelled field, a choice
// and a secret field (field.tsx), a form's submit state and how a refusal divides between its inputs and
// one line (use-form-submit.ts), its submit button, error and status lines (form-actions.tsx), a row's
// Test / replace secret / Delete with its confirm (row-actions.tsx, delete-confirm.tsx), a row's frame
// (settings-row.tsx), and the styles of the rows and forms.
export { DeleteConfirm } from "./delete-confirm";
export { SecretField, SelectField, splitErrors, TextField } from "./field";
export { FormActions, FormError, FormStatus, SubmitButton } from "./form-actions";
export { RowActions } from "./row-actions";
export { type RowStatus, SettingsRow } from "./settings-row";
export { default as formStyle } from "./style.module.css";
export { type FormSubmit, useFormSubmit } from "./use-form-submit";
