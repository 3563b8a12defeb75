// Types DataHub's schema declares twice with the same fields: an old name kept beside the new one
// (CorpUser.info, editableInfo), and an input beside the output it writes (a policy's actors and
// resources). The SDL writes the original once; its twin is derived here when the SDL is loaded,
// so the two cannot drift apart.
import { Kind, type DefinitionNode, type FieldDefinitionNode, type InputValueDefinitionNode, type TypeNode } from 'graphql';

interface TwinType {
  /** The twin's name. */
  name: string;
  /** The object type it repeats. */
  of: string;
  /** `input`: an input object whose object-typed fields take the `<Name>Input` of that type, as DataHub names them. */
  as: 'type' | 'input';
}

const TWIN_TYPES: readonly TwinType[] = [
  { name: 'CorpUserInfo', of: 'CorpUserProperties', as: 'type' },
  { name: 'CorpUserEditableInfo', of: 'CorpUserEditableProperties', as: 'type' },
  { name: 'ActorFilterInput', of: 'ActorFilter', as: 'input' },
  { name: 'ResourceFilterInput', of: 'ResourceFilter', as: 'input' },
  { name: 'PolicyMatchFilterInput', of: 'PolicyMatchFilter', as: 'input' },
];

function inputTypeOf(type: TypeNode, objectTypes: ReadonlySet<string>): TypeNode {
  if (type.kind === Kind.NAMED_TYPE) {
    const name = type.name.value;
    return objectTypes.has(name) ? { ...type, name: { ...type.name, value: `${name}Input` } } : type;
  }
  return { ...type, type: inputTypeOf(type.type, objectTypes) } as TypeNode;
}

function inputField(field: FieldDefinitionNode, objectTypes: ReadonlySet<string>): InputValueDefinitionNode {
  return {
    kind: Kind.INPUT_VALUE_DEFINITION,
    name: field.name,
    description: field.description,
    type: inputTypeOf(field.type, objectTypes),
  };
}

/** The twins whose originals one SDL module declares (object-typed fields of an input twin are looked up in that module). */
export function twinDefinitions(definitions: readonly DefinitionNode[]): DefinitionNode[] {
  const objects = new Map(definitions.flatMap((d) => (d.kind === Kind.OBJECT_TYPE_DEFINITION ? [[d.name.value, d] as const] : [])));
  const objectNames = new Set(objects.keys());
  return TWIN_TYPES.flatMap((twin): DefinitionNode[] => {
    const original = objects.get(twin.of);
    if (original === undefined) return [];
    const name = { ...original.name, value: twin.name };
    if (twin.as === 'type') return [{ ...original, name }];
    const fields = (original.fields ?? []).map((f) => inputField(f, objectNames));
    return [{ kind: Kind.INPUT_OBJECT_TYPE_DEFINITION, name, fields }];
  });
}
