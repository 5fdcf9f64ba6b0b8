"""Generated suites for the runner differential: seeded, so every run compares the same
test cases, and built to reach every branch the issue lists (matchers and their
normalizations, `count`, legacy names, single- and multi-turn, equality/numeric flags, code
graders of every return type, per-turn and agent-level metrics, timeouts, raising tools,
tool loops, n-gram metrics, a RAG metric's skip rule).

Each test case scripts the model (tool-call rounds, then a reply) and asserts on it, so the
two runners must agree on what the turn did and on every verdict.
"""

from __future__ import annotations

import json
import random
from typing import Any

from tests.differential.runner.harness import Suite
from tests.runner.fake_model import Action, Reply

TOOLS = """
TABLE = {("cash", "2019"): 206588.0, ("cash", "2020"): 181001.0, ("debt", "2019"): 1000,
         ("debt", "2020"): -25587, ("rate", "2019"): 0.332, ("rate", "2020"): "33.2%"}


def lookup(metric: str, year: str):
    return TABLE.get((metric, year), "n/a")


def add(a: float, b: float):
    return a + b


def label(code: str, upper: bool = False):
    return code.upper() if upper else code


def boom(reason: str):
    raise ValueError("tool exploded: " + reason)
"""

GRADERS = """
from dataclasses import dataclass, field

try:  # under `holodeck test`: its own result type
    from holodeck.lib.test_runner.code_grader import GraderResult
except ImportError:  # under `holodeck-lsp run`: any object with these fields
    @dataclass(frozen=True)
    class GraderResult:
        score: float
        passed: bool | None = None
        reason: str | None = None
        details: dict | None = None


def yes(ctx):
    return True


def no(ctx):
    return False


def mirrors_truth(ctx):
    return ctx.ground_truth is not None and ctx.ground_truth in ctx.agent_response


def length_score(ctx):
    return min(len(ctx.agent_response), 40) / 40


def as_int(ctx):
    return 1 if "a" in ctx.agent_response else 0


def result_object(ctx):
    return GraderResult(score=0.25 + 0.5 * ("1" in ctx.agent_response), reason="digits")


def result_passed(ctx):
    return GraderResult(score=0.1, passed=True, reason="explicit", details={"turn": ctx.turn_index})


def as_dict(ctx):
    return {"score": 1.0, "passed": True}


def as_text(ctx):
    return "yes"


def nothing(ctx):
    return None


def raises(ctx):
    raise RuntimeError("grader broke on " + ctx.turn_input)


def tool_count(ctx):
    return min(len(ctx.tool_invocations), 4) / 4


def case_name(ctx):
    return ctx.test_case_name is not None


def too_high(ctx):
    return 1.5
"""

# Graders that read only what both runners give a legacy single-turn grader.
SINGLE_SAFE = [
    "yes",
    "no",
    "mirrors_truth",
    "length_score",
    "as_int",
    "result_object",
    "result_passed",
    "as_dict",
    "as_text",
    "nothing",
    "raises",
]
# Graders whose verdict in a single-turn case rests on a documented deviation.
SINGLE_DEVIATING = {
    "tool_count": "single-turn-grader-context",
    "case_name": "single-turn-grader-context",
}

TABLE = {
    ("cash", "2019"): 206588.0,
    ("cash", "2020"): 181001.0,
    ("debt", "2019"): 1000,
    ("debt", "2020"): -25587,
    ("rate", "2019"): 0.332,
    ("rate", "2020"): "33.2%",
}


def tool_entries() -> list[dict[str, Any]]:
    string = {"type": "string"}
    return [
        {
            "name": "lookup",
            "type": "function",
            "description": "A figure by metric and year.",
            "file": "tools.py",
            "function": "lookup",
            "parameters": {"metric": string, "year": string},
        },
        {
            "name": "add",
            "type": "function",
            "description": "a + b.",
            "file": "tools.py",
            "function": "add",
            "parameters": {"a": {"type": "number"}, "b": {"type": "number"}},
        },
        {
            "name": "label",
            "type": "function",
            "description": "A label.",
            "file": "tools.py",
            "function": "label",
        },
        {
            "name": "boom",
            "type": "function",
            "description": "Always fails.",
            "file": "tools.py",
            "function": "boom",
            "parameters": {"reason": string},
        },
    ]


def _spellings(value: float) -> list[str]:
    """Ways a model may write a number, for replies and fuzzy patterns."""
    whole = int(value) if float(value).is_integer() else None
    out = [repr(value), f"{value:g}"]
    if whole is not None:
        out += [
            str(whole),
            f"{whole:,}",
            f"{whole:_}",
            f"{whole:,}".replace(",", " "),
            f"{whole:,}".replace(",", "\u202f"),
            f"{whole:,}".replace(",", "\u00a0"),
            f"{whole}.00",
        ]
    else:
        out += [f"{value * 100:g}%", f"{value * 100:g} %"]
    return out


class CaseMaker:
    """Draws one test case at a time; keeps the suite's metric flags fixed (HoloDeck keeps
    one equality and one numeric evaluator per file)."""

    def __init__(self, rng: random.Random, prefix: str) -> None:
        self.rng = rng
        self.prefix = prefix
        self.count = 0
        self.script: dict[str, list[Action]] = {}
        self.excuses: dict[str, set[str]] = {}
        flag = self.rng.random
        self.equality = {
            "type": "standard",
            "metric": "equality",
            "case_insensitive": flag() < 0.5,
            "strip_whitespace": flag() < 0.5,
            "strip_punctuation": flag() < 0.5,
        }
        self.numeric = {
            "type": "standard",
            "metric": "numeric",
            "accept_percent": flag() < 0.5,
            "accept_thousands_separators": flag() < 0.6,
            "absolute_tolerance": rng.choice([1e-6, 0.5, 2.0]),
            "relative_tolerance": rng.choice([0.0, 0.0, 0.001, 0.01]),
        }

    # --- the model's side -------------------------------------------------------------

    def _call(self) -> tuple[str, dict[str, Any]]:
        rng = self.rng
        kind = rng.choice(["lookup", "lookup", "lookup", "add", "label"])
        if kind == "lookup":
            metric, year = rng.choice(list(TABLE))
            return "lookup", {"metric": metric, "year": rng.choice([year, year, "20" + year[2:]])}
        if kind == "add":
            return "add", {"a": rng.choice([1, 2.5, -3, 206588]), "b": rng.choice([0, 1.5, 7])}
        args: dict[str, Any] = {"code": rng.choice(["ab-1", "Cash Flow", "x_y", "2019"])}
        if rng.random() < 0.5:
            args["upper"] = rng.random() < 0.5
        return "label", args

    def _reply_text(self, truth: str | None) -> str:
        rng = self.rng
        if truth is not None and rng.random() < 0.6:
            return self._variant(truth)
        return rng.choice(
            [
                "206588",
                "It is 206,588.",
                "33.2%",
                "-25 587",
                "n/a",
                '{"answer": {"value": "206588", "items": [1, 2.5]}}',
                "The cat sat.",
            ]
        )

    def _variant(self, truth: str) -> str:
        rng = self.rng
        try:
            number = float(truth.replace(",", ""))
        except ValueError:
            number = None
        if number is not None and rng.random() < 0.7:
            return rng.choice(_spellings(number) + [str(number + rng.choice([0.3, 1, 1e-7]))])
        return rng.choice(
            [truth, truth.upper(), f"  {truth} ", truth + ".", truth.replace(" ", "  ")]
        )

    # --- assertions ------------------------------------------------------------------

    def _matcher(self, value: Any) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.35:
            return value if rng.random() < 0.8 else rng.choice(["2018", 12, True, None, [1]])
        if roll < 0.7:
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                pattern = rng.choice(_spellings(float(value)) + ["1"])
            else:
                text = str(value)
                pattern = rng.choice(
                    [text, text.upper(), f" {text} ", text.replace("-", "_"), "2,019", "other"]
                )
            return {"fuzzy": pattern}
        text = str(value)
        return {"regex": rng.choice([text, ".*", text[:2] + ".*", "20(19|20)", "[0-9]+", "x"])}

    def _expected(self, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
        rng = self.rng
        out: list[Any] = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            roll = rng.random()
            if calls and roll < 0.55:
                name, args = rng.choice(calls)
                name = rng.choice([name, name, name[:3], name.upper()])
                asserted = {k: self._matcher(v) for k, v in args.items() if rng.random() < 0.7}
                if rng.random() < 0.15:
                    asserted["missing_arg"] = "x"
                entry: dict[str, Any] = {"name": name}
                if asserted:
                    entry["args"] = asserted
                if rng.random() < 0.3:
                    entry["count"] = rng.choice([1, 2, 3])
                out.append(entry)
            elif roll < 0.8:
                out.append(rng.choice(["lookup", "add", "label", "look", "divide"]))
            else:
                out.append(
                    {
                        "name": rng.choice(["lookup", "add", "divide"]),
                        **({"count": 2} if rng.random() < 0.4 else {}),
                    }
                )
        return out

    # --- metrics -----------------------------------------------------------------------

    def _metric(self, single: bool, name: str) -> dict[str, Any]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            metric = dict(self.equality)
        elif roll < 0.6:
            metric = dict(self.numeric)
        elif roll < 0.7:
            metric = {"type": "standard", "metric": "bleu"}
        else:
            graders = SINGLE_SAFE + ([] if single else list(SINGLE_DEVIATING))
            metric = {"type": "code", "grader": f"graders:{rng.choice(graders)}"}
            if rng.random() < 0.3:
                metric["name"] = f"g{rng.randrange(3)}"
        if (rng.random() < 0.35 and metric["type"] == "standard") or rng.random() < 0.2:
            metric["threshold"] = rng.choice([0, 0.3, 0.5, 1])
        if metric.get("metric") in ("equality", "numeric") and rng.random() < 0.15:
            metric["response_path"] = rng.choice(
                ["answer.value", "answer.items[1]", "answer", "missing.key", "answer.items[5]"]
            )
        return metric

    # --- turns and cases ----------------------------------------------------------------

    def _turn(self, case: str, index: int, single: bool) -> dict[str, Any]:
        rng = self.rng
        text = f"{case} turn {index}: {rng.choice(['cash', 'debt', 'rate', 'label'])}?"
        calls: list[tuple[str, dict[str, Any]]] = []
        actions: list[Action] = []
        usage = (rng.randrange(5, 60), rng.randrange(1, 20))
        roll = rng.random()
        if roll < 0.05:  # a tool that raises
            actions.append(Reply(tool_calls=[("boom", {"reason": "scripted"})], usage=usage))
        elif roll < 0.08 and not single:  # a model that never stops calling tools
            loop = Reply(tool_calls=[("lookup", {"metric": "cash", "year": "2019"})], usage=usage)
            self.script[text] = [loop]  # its last action repeats
            return {"input": text, "expected_tools": ["lookup"]}
        else:
            for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
                round_calls = [self._call() for _ in range(rng.choice([1, 1, 2]))]
                calls.extend(round_calls)
                actions.append(Reply(tool_calls=round_calls, usage=usage))
        truth = None
        if rng.random() < 0.7:
            truth = rng.choice(
                [
                    "206588",
                    "206,588",
                    "0.332",
                    "33.2%",
                    "-25587",
                    "1000",
                    "the cat sat",
                    "Cash Flow",
                    "n/a",
                ]
            )
        actions.append(Reply(self._reply_text(truth), usage=usage))
        self.script[text] = actions
        turn: dict[str, Any] = {"input": text}
        if truth is not None:
            turn["ground_truth"] = truth
        if rng.random() < 0.75:
            turn["expected_tools"] = [] if rng.random() < 0.05 else self._expected(calls)
        if rng.random() < 0.6:
            turn["evaluations"] = [
                self._metric(single, case) for _ in range(rng.choice([1, 1, 2, 3]))
            ]
        return turn

    def case(self) -> dict[str, Any]:
        self.count += 1
        name = f"{self.prefix}-{self.count}"
        single = self.rng.random() < 0.3
        if single:
            return {"name": name, **self._turn(name, 0, True)}
        case: dict[str, Any] = {"name": name}
        case["turns"] = [self._turn(name, i, False) for i in range(self.rng.choice([1, 2, 3, 4]))]
        if self.rng.random() < 0.3:
            case["evaluations"] = [self._metric(False, name) for _ in range(2)]
        fatal = [t for t in case["turns"] if self.rng.random() < 0.08]
        for turn in fatal[:1]:
            turn.setdefault("evaluations", []).append(
                {"type": "code", "grader": "graders:raises", "fail_on_error": True}
            )
        return case


def agent(
    name: str, cases: list[dict[str, Any]], metrics: list[dict[str, Any]], timeout: int = 60
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": name,
        "model": {"provider": "openai", "name": "gpt-4o-mini"},
        "instructions": {"inline": "Answer with the figure asked for."},
        "tools": tool_entries(),
    }
    if metrics:
        body["evaluations"] = {"metrics": metrics}
    body["execution"] = {"llm_timeout": timeout}
    body["test_cases"] = cases
    return body


def generated_suite(seed: int, size: int) -> Suite:
    """``size`` random test cases; agent-level metrics on every other seed."""
    rng = random.Random(seed)
    maker = CaseMaker(rng, f"s{seed}")
    cases = [maker.case() for _ in range(size)]
    metrics = [maker._metric(False, "agent") for _ in range(2)] if seed % 2 else []
    # A legacy single-turn case reads agent-level metrics: keep graders it sees the same.
    metrics = [m for m in metrics if m.get("grader", "").split(":")[-1] not in SINGLE_DEVIATING]
    return Suite(
        f"gen{seed}",
        agent(f"gen{seed}", cases, metrics),
        maker.script,
        TOOLS,
        GRADERS,
        maker.excuses,
    )


def timeout_suite() -> Suite:
    """Turns that outlive `llm_timeout` (2 s), among turns that do not; the first request of
    the run is one of them, so HoloDeck's slow first call cannot be mistaken for one."""
    script: dict[str, list[Action]] = {}
    cases: list[dict[str, Any]] = []
    for i, pattern in enumerate(["SF", "FS", "S"]):
        turns = []
        for j, kind in enumerate(pattern):
            text = f"timeout case {i} turn {j}"
            delay = 5.0 if kind == "S" else 0.0
            script[text] = [Reply("206588", usage=(9, 2), delay=delay)]
            turns.append(
                {
                    "input": text,
                    "ground_truth": "206588",
                    "expected_tools": ["lookup"],
                    "evaluations": [{"type": "standard", "metric": "numeric"}],
                }
            )
        cases.append({"name": f"timeouts-{i}", "turns": turns})
    return Suite("timeouts", agent("timeouts", cases, [], timeout=2), script, TOOLS, GRADERS)


def deviations_suite() -> Suite:
    """One test case per documented deviation, each excused by name: the harness shows the
    difference is the documented one and nothing else."""
    script: dict[str, list[Action]] = {}
    cases: list[dict[str, Any]] = []
    excuses: dict[str, set[str]] = {}

    lookup = [("lookup", {"metric": "cash", "year": "2019"})]

    def add(name: str, excuse: str | None, reply: str, calls: Any = lookup, **case: Any) -> None:
        text = f"deviation {name}"
        script[text] = [Reply(tool_calls=calls), Reply(reply)]
        cases.append({"name": name, "turns": [{"input": text, **case}]})
        if excuse:
            excuses[name] = {excuse}

    add(
        "rouge",
        "ngram-download",
        "the cat sat",
        ground_truth="the cat sat",
        evaluations=[{"type": "standard", "metric": "rouge", "threshold": 0.5}],
    )
    add(
        "meteor",
        "ngram-download",
        "the cat sat",
        ground_truth="the cat sat",
        evaluations=[{"type": "standard", "metric": "meteor", "threshold": 0.5}],
    )
    add(
        "disabled",
        "enabled-false",
        "wrong",
        ground_truth="206588",
        evaluations=[{"type": "standard", "metric": "bleu", "threshold": 0.9, "enabled": False}],
    )
    add(
        "score-range",
        "grader-score-range",
        "206588",
        evaluations=[{"type": "code", "grader": "graders:too_high"}],
    )
    add(
        "fuzzy-nan",
        "fuzzy-nan",
        "nan",
        calls=[("label", {"code": "NaN"})],
        expected_tools=[{"name": "label", "args": {"code": {"fuzzy": "nan"}}}],
    )
    add(
        "empty-reply",
        "empty-reply",
        "",
        ground_truth="x",
        evaluations=[{"type": "standard", "metric": "equality"}],
    )
    # A RAG metric's skip rule: without retrieval_context it never runs in either runner.
    add(
        "rag-skipped",
        None,
        "206588",
        evaluations=[{"type": "rag", "metric_type": "faithfulness", "threshold": 0.5}],
    )
    single = {
        "name": "single-grader-context",
        "input": "deviation single",
        "evaluations": [
            {"type": "code", "grader": "graders:tool_count"},
            {"type": "code", "grader": "graders:case_name"},
        ],
    }
    script["deviation single"] = script["deviation rouge"]
    cases.append(single)
    excuses["single-grader-context"] = {"single-turn-grader-context"}
    body = agent("deviations", cases, [])
    body["evaluations"] = {"metrics": [{"type": "code", "grader": "graders:yes"}]}
    return Suite("deviations", body, script, TOOLS, GRADERS, excuses)


def flag_conflict_suite() -> Suite:
    """Two equality metrics with different flags in one file: HoloDeck applies the last
    one's flags to both."""
    script: dict[str, list[Action]] = {"Capital?": [Reply("PARIS")]}
    strict = {"type": "standard", "metric": "equality"}
    loose = {"type": "standard", "metric": "equality", "case_insensitive": True}
    cases = [
        {
            "name": "strict first",
            "turns": [{"input": "Capital?", "ground_truth": "Paris", "evaluations": [strict]}],
        },
        {
            "name": "loose",
            "turns": [{"input": "Capital?", "ground_truth": "Paris", "evaluations": [loose]}],
        },
    ]
    excuses = {"strict first": {"one-evaluator-per-kind"}}
    return Suite("flags", agent("flags", cases, []), script, TOOLS, GRADERS, excuses)


RAG_REASON = "The score is 0.50 because one of the two claims contradicts the passages."


def rag_judge(prompt: str) -> str | None:
    """The judge of faithfulness, answering HoloDeck's (deepeval's four steps) and ours
    alike: two claims, one supported and one contradicted by the passages."""
    if "The score is <faithfulness_score>" in prompt:
        return json.dumps({"reason": RAG_REASON})
    if '"truths" key' in prompt:
        return json.dumps({"truths": ["Cash was 206,588 in 2019.", "Debt was 1,000 in 2019."]})
    if '"claims" key' in prompt:
        return json.dumps({"claims": ["Cash was 206,588 in 2019.", "Debt was 2,000 in 2019."]})
    if '"verdicts"' in prompt:
        return json.dumps(
            {"verdicts": [{"verdict": "yes"}, {"verdict": "no", "reason": "1,000, not 2,000."}]}
        )
    if prompt.startswith("List every factual claim"):
        claims = [
            {"claim": "Cash was 206,588 in 2019.", "verdict": "yes"},
            {"claim": "Debt was 2,000 in 2019.", "verdict": "no"},
        ]
        return json.dumps({"claims": claims, "reason": RAG_REASON})
    return None


def rag_suite() -> Suite:
    """Faithfulness graded by a judge on a turn with retrieval_context; skipped on a turn
    without one."""
    text = "Cash and debt in 2019?"
    script: dict[str, list[Action]] = {text: [Reply("Cash was 206,588 and debt 2,000 in 2019.")]}
    metric = {
        "type": "rag",
        "metric_type": "faithfulness",
        "threshold": 0.5,
        "model": {"provider": "openai", "name": "gpt-4o-mini"},
    }
    passages = ["Acme's cash in 2019 was 206,588.", "Acme's debt in 2019 was 1,000."]
    cases = [
        {
            "name": "grounded",
            "turns": [{"input": text, "retrieval_context": passages, "evaluations": [metric]}],
        },
        {"name": "no passages", "turns": [{"input": text, "evaluations": [metric]}]},
    ]
    return Suite("rag", agent("rag", cases, []), script, TOOLS, GRADERS, judge=rag_judge)


GEVAL_SCORES = {"Thank you kindly for asking.": 8, "Go away.": 3}


def geval_judge(prompt: str) -> str | None:
    """The G-Eval judge, for DeepEval's prompt and ours alike (both ask for a score from 0
    to 10 and a reason): by the reply it is shown."""
    for reply, score in GEVAL_SCORES.items():
        if reply in prompt:
            return json.dumps({"score": score, "reason": f"Scored {score} of 10."})
    return None


def geval_suite() -> Suite:
    """A G-Eval metric without a threshold: HoloDeck passes it at 0.5 (executor.py:649),
    so a reply the judge scores 3 of 10 fails and one scored 8 passes."""
    metric = {
        "type": "geval",
        "name": "Politeness",
        "criteria": "The reply is polite.",
        "evaluation_steps": ["Check whether the reply is polite."],
        "model": {"provider": "openai", "name": "gpt-4o-mini"},
    }
    script: dict[str, list[Action]] = {}
    cases = []
    for n, reply in enumerate(GEVAL_SCORES):
        script[f"Greet me ({n})"] = [Reply(reply)]
        cases.append({"name": f"reply {n}", "turns": [{"input": f"Greet me ({n})"}]})
    return Suite("geval", agent("geval", cases, [metric]), script, TOOLS, GRADERS,
                 judge=geval_judge)  # fmt: skip


ROUTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "queue": {"type": "string", "enum": ["billing", "technical"]},
        "score": {"type": "number", "minimum": 0, "maximum": 1},
    },
    "required": ["queue", "score"],
    "additionalProperties": False,
}


def structured_output_suite() -> Suite:
    """An agent with a response_format: replies that follow the schema, plain text, JSON
    that breaks it, after a tool call too; single-turn cases and turns."""
    replies = {
        "valid": json.dumps({"queue": "billing", "score": 0.9}),
        "reordered": '{"score":1,"queue":"technical"}',
        "plain": "Billing, I think.",
        "wrong enum": json.dumps({"queue": "sales", "score": 0.5}),
        "missing": json.dumps({"queue": "billing"}),
        "not an object": "[1, 2]",
    }
    script: dict[str, list[Action]] = {}
    cases: list[dict[str, Any]] = []
    equality = [{"type": "standard", "metric": "equality"}]
    for name, reply in replies.items():
        script[f"route {name}"] = [Reply(reply)]
        script[f"route {name} after a lookup"] = [
            Reply(tool_calls=[("lookup", {"metric": "cash", "year": "2019"})]),
            Reply(reply),
        ]
        cases.append({"name": f"single {name}", "input": f"route {name}", "ground_truth": reply})
        cases.append(
            {
                "name": f"turns {name}",
                "turns": [
                    {"input": f"route {name} after a lookup", "evaluations": equality,
                     "ground_truth": reply},
                    {"input": "route valid"},
                ],
            }
        )
    body = agent("structured", cases, equality)
    body["response_format"] = ROUTE_SCHEMA
    return Suite("structured", body, script, TOOLS, GRADERS)
