import type { MemoryLayer, MemoryType } from '@memory-service/client';
import type { ComponentChildren } from 'preact';
import { SelectField } from '../../components/fields.js';
import { LAYER_OPTIONS, TYPE_OPTIONS } from './memory-query.js';

const TYPES = TYPE_OPTIONS.filter((option) => option.value !== '');
const LAYERS = LAYER_OPTIONS.filter((option) => option.value !== '');

/** A memory's type and layer side by side, as the add and edit forms ask for them. */
export function TypeLayerFields({
  type,
  layer,
  onType,
  onLayer,
  typeHint,
}: {
  type: MemoryType;
  layer: MemoryLayer;
  onType: (type: MemoryType) => void;
  onLayer: (layer: MemoryLayer) => void;
  typeHint?: ComponentChildren;
}) {
  return (
    <div class="field-row">
      <SelectField
        label="Type"
        name="type"
        value={type}
        onValue={(value) => onType(value as MemoryType)}
        options={TYPES}
        {...(typeHint === undefined ? {} : { hint: typeHint })}
      />
      <SelectField
        label="Layer"
        name="layer"
        value={layer}
        onValue={(value) => onLayer(value as MemoryLayer)}
        options={LAYERS}
      />
    </div>
  );
}
