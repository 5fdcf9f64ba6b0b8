// The Testing view's tree: suite file -> test case -> turn, built from the server's
// `holodeck/testItems` answer (so names and ranges come from the parse behind the diagnostics).

import * as vscode from 'vscode';

export const TEST_ITEMS = 'holodeck/testItems';
export const FIELD_RANGES = 'holodeck/fieldRanges';

export interface ServerRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface ServerTurn {
  index: number;
  label: string;
  detail: string;
  range: ServerRange;
}

export interface ServerCase {
  index: number;
  label: string;
  detail: string;
  range: ServerRange;
  turns: ServerTurn[];
}

/** The answer of `holodeck/testItems`; null when the text does not parse (keep what is shown). */
export interface SuiteItems {
  cases: ServerCase[];
}

/** Where an item stands: its file, and the case and turn when it is one. */
export interface ItemPlace {
  uri: string;
  caseIndex?: number;
  turn?: number;
}

const SEPARATOR = '\u0000';

export function itemId(place: ItemPlace): string {
  const parts = [place.uri];
  if (place.caseIndex !== undefined) {
    parts.push(String(place.caseIndex));
    if (place.turn !== undefined) {
      parts.push(String(place.turn));
    }
  }
  return parts.join(SEPARATOR);
}

export function placeOf(id: string): ItemPlace {
  const [uri, caseIndex, turn] = id.split(SEPARATOR);
  return {
    uri,
    caseIndex: caseIndex === undefined ? undefined : Number(caseIndex),
    turn: turn === undefined ? undefined : Number(turn),
  };
}

export function toRange(range: ServerRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** Replaces the file item's children with the suite's cases and turns. */
export function fillSuite(controller: vscode.TestController, file: vscode.TestItem, suite: SuiteItems): void {
  const uri = file.uri ?? vscode.Uri.parse(file.id);
  const cases = suite.cases.map((found) => {
    const item = controller.createTestItem(itemId({ uri: file.id, caseIndex: found.index }), found.label, uri);
    item.range = toRange(found.range);
    item.description = found.detail;
    item.children.replace(
      found.turns.map((turn) => {
        const child = controller.createTestItem(
          itemId({ uri: file.id, caseIndex: found.index, turn: turn.index }),
          turn.label,
          uri,
        );
        child.range = toRange(turn.range);
        child.description = turn.detail;
        return child;
      }),
    );
    return item;
  });
  file.children.replace(cases);
}
