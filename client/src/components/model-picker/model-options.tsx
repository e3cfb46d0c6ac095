// A native select's options for models: one optgroup per provider, each option's value a ref key
// (parseRefKey reads it back). The default model in Settings and Retry with another model use it.
import type { AvailableModel } from "../../../../protocol";
import { byProvider, modelLabel, refKey, refOf } from "../../lib/use-models";

export function ModelOptions({ models }: { models: readonly AvailableModel[] }) {
  return (
    <>
      {byProvider(models).map((group) => (
        <optgroup key={group.id} label={group.name}>
          {group.models.map((model) => (
            <option key={model.model} value={refKey(refOf(model))}>
              {modelLabel(model)}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}
