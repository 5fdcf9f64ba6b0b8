"""The `observability:` block: OpenTelemetry traces, metrics, logs and their exporters."""

from enum import Enum
from typing import Annotated

from pydantic import (
    AfterValidator,
    Field,
    SecretStr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from holodeck_lsp.models._base import StrictModel
from holodeck_lsp.models.errors import REGEX_COMPILE, fail, regex_problem


class LogLevel(str, Enum):
    """Lowest severity of the log records exported."""

    DEBUG = "DEBUG"
    INFO = "INFO"
    WARNING = "WARNING"
    ERROR = "ERROR"
    CRITICAL = "CRITICAL"


class OTLPProtocol(str, Enum):
    """Wire protocol of the OTLP exporter."""

    GRPC = "grpc"
    HTTP = "http"


def _compiles(pattern: str) -> str:
    problem = regex_problem(pattern)
    if problem is not None:
        raise fail(REGEX_COMPILE, "regex does not compile: {reason}", reason=problem[0],
                   char=problem[1])
    return pattern


RegexStr = Annotated[str, AfterValidator(_compiles)]


class TracingConfig(StrictModel):
    """Trace collection."""

    enabled: bool = Field(True, description="Collect traces.")
    sample_rate: float = Field(
        1.0, ge=0.0, le=1.0, description="Share of traces kept, from 0.0 to 1.0."
    )
    capture_content: bool = Field(
        False, description="Record prompts and replies in spans (may expose sensitive data)."
    )
    capture_evaluation_content: bool = Field(
        False,
        description=(
            "Record what the evaluators see (input, actual and expected output) in spans "
            "(may expose sensitive data)."
        ),
    )
    redaction_patterns: list[RegexStr] = Field(
        default_factory=list,
        description="Regular expressions (Python syntax) whose matches are masked in spans.",
    )
    max_queue_size: int = Field(2048, ge=1, description="Spans buffered before export.")
    max_export_batch_size: int = Field(
        512, ge=1, description="Spans sent per export; at most `max_queue_size`."
    )
    schedule_delay_millis: int = Field(
        2000, ge=100, description="Interval between span exports, in milliseconds."
    )

    @model_validator(mode="after")
    def _batch_fits_queue(self) -> "TracingConfig":
        if self.max_queue_size < self.max_export_batch_size:
            raise ValueError(
                f"max_queue_size ({self.max_queue_size}) must be at least "
                f"max_export_batch_size ({self.max_export_batch_size})"
            )
        return self


class MetricsConfig(StrictModel):
    """Metric collection."""

    enabled: bool = Field(True, description="Collect metrics.")
    export_interval_ms: int = Field(
        5000, ge=1000, description="Interval between metric exports, in milliseconds (>= 1000)."
    )


class LogsConfig(StrictModel):
    """Structured log export."""

    enabled: bool = Field(True, description="Export log records.")
    level: LogLevel = Field(
        LogLevel.INFO,
        description="Lowest level exported: DEBUG, INFO, WARNING, ERROR or CRITICAL.",
    )
    include_trace_context: bool = Field(
        True, description="Attach the trace and span ids to each record."
    )
    filter_namespaces: list[str] = Field(
        default_factory=lambda: ["semantic_kernel"],
        description="Logger names whose records are exported.",
    )


class ConsoleExporterConfig(StrictModel):
    """Print telemetry to standard output (used when no other exporter is enabled)."""

    enabled: bool = Field(True, description="Turn the console exporter on.")
    pretty_print: bool = Field(True, description="Indent the output for reading.")
    include_timestamps: bool = Field(True, description="Print timestamps.")


class OTLPExporterConfig(StrictModel):
    """Send telemetry to an OpenTelemetry collector."""

    enabled: bool = Field(True, description="Turn the OTLP exporter on.")
    endpoint: str = Field("http://localhost:4317", description="Collector URL.")
    protocol: OTLPProtocol = Field(OTLPProtocol.GRPC, description="`grpc` or `http`.")
    headers: dict[str, str] = Field(
        default_factory=dict, description="Headers sent with each export, e.g. an API key."
    )
    timeout_ms: int = Field(
        30000, ge=1000, description="Time limit of one export, in milliseconds (>= 1000)."
    )
    compression: str | None = Field(None, description="`gzip`, `deflate`, or none.")
    insecure: bool = Field(True, description="Connect without TLS.")


class PrometheusExporterConfig(StrictModel):
    """Serve metrics on an HTTP endpoint for Prometheus to scrape."""

    enabled: bool = Field(False, description="Turn the Prometheus endpoint on.")
    port: int = Field(8889, ge=1024, le=65535, description="Port to listen on (1024-65535).")
    host: str = Field("0.0.0.0", description="Address to listen on.")
    path: str = Field("/metrics", description="URL path of the metrics page.")


class AzureMonitorExporterConfig(StrictModel):
    """Send telemetry to Azure Monitor / Application Insights."""

    enabled: bool = Field(False, description="Turn the Azure Monitor exporter on.")
    connection_string: SecretStr | None = Field(
        None,
        validate_default=True,
        description="Application Insights connection string; required when enabled.",
    )
    disable_offline_storage: bool = Field(
        False, description="Do not keep unsent telemetry on disk for retries."
    )
    storage_directory: str | None = Field(None, description="Folder for unsent telemetry.")

    @field_validator("connection_string")
    @classmethod
    def _needed_when_enabled(
        cls, value: SecretStr | None, info: ValidationInfo
    ) -> SecretStr | None:
        if info.data.get("enabled") is True and not value:
            raise ValueError("connection_string is required when the exporter is enabled")
        return value


class ExportersConfig(StrictModel):
    """Where telemetry goes; the console when nothing else is enabled."""

    console: ConsoleExporterConfig | None = Field(None, description="Standard output.")
    otlp: OTLPExporterConfig | None = Field(None, description="An OpenTelemetry collector.")
    prometheus: PrometheusExporterConfig | None = Field(
        None, description="A Prometheus scrape endpoint."
    )
    azure_monitor: AzureMonitorExporterConfig | None = Field(
        None, description="Azure Monitor / Application Insights."
    )


class ObservabilityConfig(StrictModel):
    """OpenTelemetry instrumentation of the agent."""

    enabled: bool = Field(False, description="Turn telemetry on.")
    disable_provider_tracing: bool = Field(
        False,
        description=(
            "Stop the model provider's own trace upload (OpenAI Agents backend) and keep "
            "only the OpenTelemetry copy."
        ),
    )
    service_name: str | None = Field(
        None, description="Service name in telemetry; `holodeck-<agent name>` when omitted."
    )
    traces: TracingConfig = Field(default_factory=TracingConfig, description="Trace settings.")
    metrics: MetricsConfig = Field(default_factory=MetricsConfig, description="Metric settings.")
    logs: LogsConfig = Field(default_factory=LogsConfig, description="Log settings.")
    exporters: ExportersConfig = Field(
        default_factory=ExportersConfig, description="Telemetry destinations."
    )
    resource_attributes: dict[str, str] = Field(
        default_factory=dict, description="Extra OpenTelemetry resource attributes."
    )
