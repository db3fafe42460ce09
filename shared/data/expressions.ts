// Update expressions built from a partial record of changes.

/** `SET #f = :f, …, #updatedAt = :updatedAt` for the fields of `changes` that are not undefined. */
export function setChangedFields(changes: Record<string, unknown>, updatedAt: string) {
  const names: Record<string, string> = { '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':updatedAt': updatedAt };
  const sets = ['#updatedAt = :updatedAt'];
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    sets.push(`#${field} = :${field}`);
  }
  return { UpdateExpression: `SET ${sets.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
}
