// The Testing view's tree: suite file -> test case -> turn, built from the server's
// `holodeck/testItems` answer (so names and ranges come from the parse behind the diagnostics).

import * as vscode from 'vscode';

import type { ServerHistory, ServerRange, SuiteItems } from './protocol';

/** The tag of a case or turn that both passed and failed in the last runs kept beside its agent. */
export const FLAKY = new vscode.TestTag('flaky');

/** Where an item stands: its file, and the case and turn when it is one. */
export interface ItemPlace {
  uri: string;
  caseIndex?: number;
  turn?: number;
}

// `<uri>`, `<uri>#<case>`, `<uri>#<case>.<turn>`: a file URI has no raw '#' (it is %23), and VS
// Code keeps the NUL character for its own ids.
export function itemId(place: ItemPlace): string {
  if (place.caseIndex === undefined) {
    return place.uri;
  }
  return `${place.uri}#${place.caseIndex}${place.turn === undefined ? '' : `.${place.turn}`}`;
}

export function placeOf(id: string): ItemPlace {
  const hash = id.lastIndexOf('#');
  const where = hash < 0 ? undefined : /^(\d+)(?:\.(\d+))?$/.exec(id.slice(hash + 1));
  if (hash < 0 || where === null || where === undefined) {
    return { uri: id };
  }
  return {
    uri: id.slice(0, hash),
    caseIndex: Number(where[1]),
    turn: where[2] === undefined ? undefined : Number(where[2]),
  };
}

export function toRange(range: ServerRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

/** An item's description: its detail, and when it is flaky, its record over the last runs. */
function mark(item: vscode.TestItem, detail: string, history: ServerHistory | undefined): void {
  const flaky = history?.flaky === true;
  item.description = flaky ? `${detail} · flaky: ${history.text}` : detail;
  item.tags = flaky ? [FLAKY] : [];
}

/** Replaces the file item's children with the suite's cases and turns (maybe in its `test_cases_file`). */
export function fillSuite(controller: vscode.TestController, file: vscode.TestItem, suite: SuiteItems): void {
  const uri = vscode.Uri.parse(suite.uri);
  const cases = suite.cases.map((found) => {
    const item = controller.createTestItem(itemId({ uri: file.id, caseIndex: found.index }), found.label, uri);
    item.range = toRange(found.range);
    mark(item, found.detail, found.history);
    item.children.replace(
      found.turns.map((turn) => {
        const child = controller.createTestItem(
          itemId({ uri: file.id, caseIndex: found.index, turn: turn.index }),
          turn.label,
          uri,
        );
        child.range = toRange(turn.range);
        mark(child, turn.detail, turn.history);
        return child;
      }),
    );
    return item;
  });
  file.children.replace(cases);
}
