// One test run of the Testing view: the chosen items become `holodeck-lsp run` invocations (one
// per suite, or per chosen case), whose events mark each case and turn as they come.

import * as vscode from 'vscode';

import { parseEvent, RunInterpreter, type Failure, type Target, type Update } from './events';
import { bundleLacksExtras, missingExtras } from './extras';
import { itemId, placeOf, toRange } from './items';
import type { RunArguments, RunMode, ServerLocation } from './protocol';
import { runEvents, type RunOutcome } from './runProcess';

export interface Selection {
  caseIndex?: number;
  upToTurn?: number;
}

/** A program that runs `holodeck-lsp`, with its first arguments. */
export interface RunProgram {
  command: string;
  args: string[];
  /** Set when it is the server bundled with the extension: the Python that runs it. */
  bundledPython?: string;
}

export interface RunDeps {
  /** The program that runs `holodeck-lsp`; undefined when not found. */
  program(): Promise<RunProgram | undefined>;
  /** The environment's own holodeck-lsp (never the bundled one); undefined when not found. */
  environmentProgram(): Promise<RunProgram | undefined>;
  /** The server's `holodeck/fieldLocations`; undefined when it cannot answer. */
  fieldLocations(uri: string, paths: string[]): Promise<(ServerLocation | null)[] | undefined>;
  /** The server's `holodeck/runArguments`, the command line its lenses run; undefined when it cannot answer. */
  runArguments(agentFile: vscode.Uri, selection: Selection, mode: RunMode): Promise<RunArguments | undefined>;
  log: vscode.LogOutputChannel;
}

export interface Job {
  file: vscode.TestItem;
  selection: Selection;
}

/**
 * The chosen items without the excluded ones: a chosen item with an excluded item inside
 * stands for its other children (a suite for its other cases, a case for its other turns;
 * a conversation cannot skip a turn, so a case still runs up to its last remaining turn).
 */
export function withoutExcluded(chosen: readonly vscode.TestItem[], excluded: ReadonlySet<string>): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  const holdsExcluded = (item: vscode.TestItem): boolean => {
    let found = false;
    item.children.forEach((child) => {
      found ||= excluded.has(child.id) || holdsExcluded(child);
    });
    return found;
  };
  const visit = (item: vscode.TestItem): void => {
    if (excluded.has(item.id)) {
      return;
    }
    if (holdsExcluded(item)) {
      item.children.forEach(visit);
    } else {
      out.push(item);
    }
  };
  chosen.forEach(visit);
  return out;
}

/**
 * The runs a request needs: a whole suite when its file is chosen (or when recording, so the
 * recording is never replaced by one case's), else one run per chosen case, up to the last
 * chosen turn when only turns of it are chosen.
 */
export function jobsFor(items: readonly vscode.TestItem[], files: (uri: string) => vscode.TestItem | undefined, mode: RunMode): Job[] {
  // Per suite: the whole of it, or each chosen case, whole ('all') or up to a turn.
  const byFile = new Map<string, { file: vscode.TestItem; whole: boolean; cases: Map<number, number | 'all'> }>();
  for (const item of items) {
    const place = placeOf(item.id);
    const file = files(place.uri);
    if (file === undefined) {
      continue;
    }
    const entry = byFile.get(place.uri) ?? { file, whole: false, cases: new Map<number, number | 'all'>() };
    byFile.set(place.uri, entry);
    const before = place.caseIndex === undefined ? undefined : entry.cases.get(place.caseIndex);
    if (place.caseIndex === undefined || mode === 'record') {
      entry.whole = true;
    } else if (place.turn === undefined || before === 'all') {
      entry.cases.set(place.caseIndex, 'all');
    } else {
      entry.cases.set(place.caseIndex, Math.max(before ?? -1, place.turn));
    }
  }
  const jobs: Job[] = [];
  for (const { file, whole, cases } of byFile.values()) {
    if (whole) {
      jobs.push({ file, selection: {} });
      continue;
    }
    for (const [caseIndex, upToTurn] of [...cases.entries()].sort((a, b) => a[0] - b[0])) {
      jobs.push({ file, selection: upToTurn === 'all' ? { caseIndex } : { caseIndex, upToTurn } });
    }
  }
  return jobs;
}

/** Runs each job in turn, reporting to `run`; stops early on cancel. */
export async function runJobs(run: vscode.TestRun, jobs: readonly Job[], mode: RunMode, token: vscode.CancellationToken, deps: RunDeps): Promise<void> {
  const program = await deps.program();
  for (const job of jobs) {
    if (token.isCancellationRequested) {
      coveredBy(job).forEach((item) => run.skipped(item));
      continue;
    }
    if (program === undefined) {
      coveredBy(job).forEach((item) => run.errored(item, new vscode.TestMessage('holodeck-lsp was not found: see the HoloDeck output channel.')));
      continue;
    }
    await runJob(run, job, mode, token, deps, program);
  }
}

/** The items a job reports on: its cases and their turns, up to the chosen turn. */
function coveredBy(job: Job): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  job.file.children.forEach((caseItem) => {
    const place = placeOf(caseItem.id);
    if (job.selection.caseIndex !== undefined && place.caseIndex !== job.selection.caseIndex) {
      return;
    }
    out.push(caseItem);
    caseItem.children.forEach((turn) => {
      const index = placeOf(turn.id).turn ?? 0;
      if (job.selection.upToTurn === undefined || index <= job.selection.upToTurn) {
        out.push(turn);
      }
    });
  });
  return out;
}

async function runJob(
  run: vscode.TestRun,
  job: Job,
  mode: RunMode,
  token: vscode.CancellationToken,
  deps: RunDeps,
  program: RunProgram,
): Promise<void> {
  const file = job.file;
  const covered = coveredBy(job);
  const command = await deps.runArguments(file.uri ?? vscode.Uri.parse(file.id), job.selection, mode);
  if (command === undefined) {
    const why = 'the HoloDeck language server did not give the command line of this run: see the HoloDeck output channel.';
    covered.forEach((item) => run.errored(item, new vscode.TestMessage(why)));
    return;
  }
  const args = [...program.args, ...command.args];
  deps.log.info(`Running ${[program.command, ...args].join(' ')}`);
  covered.forEach((item) => run.enqueued(item));
  const reported = new Set<string>();
  const interpreter = new RunInterpreter();
  const reporter = new Reporter(run, file, deps, reported);
  let ended: Extract<Update, { kind: 'ended' }> | undefined;
  let chain = Promise.resolve();
  const outcome: RunOutcome = await runEvents(
    { command: program.command, args, cwd: command.cwd },
    (line) => {
      const event = parseEvent(line);
      if (event === undefined) {
        return;
      }
      for (const update of interpreter.push(event)) {
        if (update.kind === 'ended') {
          ended = update;
        }
        // Placing a failure asks the server: keep the updates in the order they came.
        chain = chain.then(() => reporter.apply(update));
      }
    },
    token,
  );
  await chain;
  const notRun = covered.filter((item) => !reported.has(item.id));
  if (ended === undefined && !outcome.cancelled) {
    let why = outcome.error ?? (outcome.stderr.trim() || `holodeck-lsp run exited with ${outcome.exitCode ?? outcome.signal}`);
    const extras = missingExtras(outcome.stderr);
    if (extras.length > 0 && program.bundledPython !== undefined) {
      const fallback = await deps.environmentProgram();
      if (fallback !== undefined) {
        const named = extras.map((extra) => `\`${extra}\``).join(', ');
        deps.log.info(`The bundled server lacks the ${named} extra this suite needs: running it with ${fallback.command}`);
        await runJob(run, job, mode, token, deps, fallback);
        return;
      }
      why = bundleLacksExtras(extras, program.bundledPython);
    }
    deps.log.error(`holodeck-lsp run: ${why}`);
    run.appendOutput(`${why.replace(/\r?\n/g, '\r\n')}\r\n`);
    notRun.forEach((item) => run.errored(item, new vscode.TestMessage(why)));
    return;
  }
  notRun.forEach((item) => run.skipped(item));
  if (ended !== undefined) {
    const how = ended.interrupted === undefined ? 'finished' : `interrupted (${ended.interrupted})`;
    const line = `${file.label}: run ${how}: ${ended.passed} passed, ${ended.failed} failed`;
    deps.log.info(line);
    run.appendOutput(`${line}\r\n`);
  }
}

/** How a failure is logged: `failed`, or `regressed` when it passed in the baseline. */
function failedState(update: Extract<Update, { kind: 'failed' }>): string {
  return update.regressed === true ? 'regressed' : 'failed';
}

/** Applies the interpreter's updates to the test run, placing failures at their lines. */
class Reporter {
  constructor(
    private readonly run: vscode.TestRun,
    private readonly file: vscode.TestItem,
    private readonly deps: RunDeps,
    private readonly reported: Set<string>,
  ) {}

  /** The case's item, or its turn's (a single-turn case has no turn item: undefined). */
  private itemOf(target: Target): vscode.TestItem | undefined {
    const caseItem = this.file.children.get(itemId({ uri: this.file.id, caseIndex: target.caseIndex }));
    if (target.turn === undefined || caseItem === undefined) {
      return caseItem;
    }
    return caseItem.children.get(itemId({ uri: this.file.id, caseIndex: target.caseIndex, turn: target.turn }));
  }

  async apply(update: Update): Promise<void> {
    if (update.kind === 'ended' || update.kind === 'planned') {
      return;
    }
    const item = this.itemOf(update.target);
    if (item === undefined) {
      return;
    }
    switch (update.kind) {
      case 'started':
        this.run.started(item);
        item.children.forEach((turn) => this.run.started(turn));
        return;
      case 'passed':
        this.done(item, 'passed');
        this.run.passed(item, update.durationMs);
        return;
      case 'skipped':
        this.done(item, 'skipped');
        this.run.skipped(item);
        return;
      case 'failed': {
        const messages = await this.messages(update.failures, item);
        this.done(item, failedState(update), messages);
        this.run.failed(item, messages, update.durationMs);
        return;
      }
    }
  }

  private done(item: vscode.TestItem, state: string, messages: readonly vscode.TestMessage[] = []): void {
    this.reported.add(item.id);
    const place = placeOf(item.id);
    const where = place.turn === undefined ? `test_cases[${place.caseIndex}]` : `test_cases[${place.caseIndex}].turns[${place.turn}]`;
    const at = messages.map((m) => ` | line ${(m.location?.range.start.line ?? -1) + 1}: ${String(m.message).split('\n')[0]}`);
    // One line per result in the output channel (also what the end-to-end test reads).
    this.deps.log.info(`test result: ${this.file.label} ${where} ${state}${at.join('')}`);
  }

  private async messages(failures: readonly Failure[], item: vscode.TestItem): Promise<vscode.TestMessage[]> {
    const suite = this.file.uri ?? vscode.Uri.parse(this.file.id);
    const found = (await this.deps.fieldLocations(suite.toString(), failures.map((f) => f.path))) ?? [];
    return failures.map((failure, i) => {
      const message =
        failure.expected !== undefined && failure.actual !== undefined
          ? vscode.TestMessage.diff(failure.message, failure.expected, failure.actual)
          : new vscode.TestMessage(failure.message);
      const at = found[i];
      if (at) {
        message.location = new vscode.Location(vscode.Uri.parse(at.uri), toRange(at.range));
      } else if (item.uri !== undefined && item.range !== undefined) {
        message.location = new vscode.Location(item.uri, item.range);
      }
      return message;
    });
  }
}
