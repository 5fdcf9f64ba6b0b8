"""Before any agent call: the metric libraries are importable and every judge model can be
called (or answered from the recording), so a run never stops half-way for either."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.evaluation import CodeMetric, EvaluationMetric, MetricConfig
from holodeck_lsp.runner.backends.backend import Backend
from holodeck_lsp.runner.backends.backend_choice import model_backend
from holodeck_lsp.runner.execute.judge_channels import LiveChannel, ReplayChannel
from holodeck_lsp.runner.execute.recording import Recorder, ReplayBackend, Table
from holodeck_lsp.runner.execute.resume import ResumeChannel
from holodeck_lsp.runner.score.metrics.judge_panel import Channel, JudgePanel
from holodeck_lsp.runner.score.metrics.judged_metrics import is_judged
from holodeck_lsp.runner.score.metrics.ngram_overlap import MODULES, missing_library
from holodeck_lsp.runner.score.metrics.rubrics import SYSTEM_PROMPT
from holodeck_lsp.runner.score.metrics.turn_metrics import metric_name
from holodeck_lsp.runner.services.http_client import RetryPolicy
from holodeck_lsp.runner.services.service_targets import BackendConfigError
from holodeck_lsp.runner.tools.toolbox import ToolBox


class MetricSetupError(Exception):
    """A metric of the suite cannot run here; the message says why and what to do."""


def enabled(metrics: Iterable[MetricConfig]) -> list[MetricConfig]:
    return [m for m in metrics if m.enabled]


def check_libraries(metrics: Iterable[MetricConfig]) -> None:
    """Every n-gram metric used has its library installed."""
    wanted = {m.metric for m in metrics if isinstance(m, EvaluationMetric) and m.metric in MODULES}
    problems = [p for p in (missing_library(name) for name in sorted(wanted)) if p]
    if problems:
        raise MetricSetupError("; ".join(problems))


def build_panel(
    agent: Agent,
    metrics: Iterable[MetricConfig],
    *,
    replay: ReplayBackend | None,
    recorder: Recorder | None,
    env: Mapping[str, str],
    policy: RetryPolicy | None,
    parallelism: int,
    timeout: float,
    resume: Table | None = None,
) -> JudgePanel | None:
    """The judges of the run's LLM-judged metrics, or None when it has none."""
    judged = [m for m in metrics if not isinstance(m, CodeMetric) and is_judged(m)]
    if not judged:
        return None
    evaluations = agent.evaluations
    default = (evaluations.model if evaluations is not None else None) or agent.model
    if replay is not None:
        return JudgePanel(ReplayChannel(replay), default, timeout)
    backends: dict[str, Backend] = {}
    channel: Channel = LiveChannel(backends, recorder)
    if resume is not None and recorder is not None:
        channel = ResumeChannel(resume, channel, recorder)
    panel = JudgePanel(channel, default, timeout)
    for metric in judged:
        model = panel.model_for(metric.model)
        if model.key in backends:
            continue
        # Judges grade at temperature 0, whatever the model block says: the same reply
        # should get the same grade.
        config = model.config.model_copy(update={"temperature": 0.0})
        try:
            backends[model.key] = model_backend(
                config, SYSTEM_PROMPT, ToolBox(), 1, parallelism, env, policy
            )
        except BackendConfigError as exc:
            raise MetricSetupError(
                f"judge model '{model.name}' of metric '{metric_name(metric)}': {exc}"
            ) from None
    return panel
