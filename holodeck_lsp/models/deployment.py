"""The `deployment:` block: container image, registry and cloud target."""

import re
from enum import Enum

from pydantic import Field, ValidationInfo, field_validator, model_validator

from holodeck_lsp.models._base import StrictModel

# Formats checked with `re.match`, so `$` also accepts one trailing newline, as the
# loader we mirror does.
REPOSITORY_RE = re.compile(r"^[a-z0-9][a-z0-9._/-]*[a-z0-9]$|^[a-z0-9]$")
AWS_ROLE_ARN_RE = re.compile(r"^arn:aws:iam::\d{12}:role/[\w+=,.@-]+$")
GCP_PROJECT_ID_RE = re.compile(r"^[a-z][a-z0-9-]{4,28}[a-z0-9]$")
GCP_MEMORY_RE = re.compile(r"^\d+(Mi|Gi)$")
UUID_RE = re.compile(
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE
)
AZURE_CPU_CHOICES = (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0)


class TagStrategy(str, Enum):
    """How the container image tag is chosen."""

    GIT_SHA = "git_sha"
    GIT_TAG = "git_tag"
    LATEST = "latest"
    CUSTOM = "custom"


class CloudProvider(str, Enum):
    """Cloud that hosts the agent."""

    AWS = "aws"
    GCP = "gcp"
    AZURE = "azure"


class RuntimeType(str, Enum):
    """How the agent is packaged."""

    CONTAINER = "container"


class ProtocolType(str, Enum):
    """API the deployed agent serves."""

    REST = "rest"
    AG_UI = "ag-ui"
    BOTH = "both"


class RegistryConfig(StrictModel):
    """The container registry the image is pushed to."""

    url: str = Field(..., description="Registry host, e.g. `ghcr.io` or `docker.io`.")
    repository: str = Field(
        ...,
        description=(
            "Image repository, e.g. `my-org/my-agent`: lowercase letters, digits, "
            "`.`, `_`, `/` and `-`."
        ),
    )
    tag_strategy: TagStrategy = Field(
        TagStrategy.GIT_SHA,
        description="Image tag: `git_sha` (default), `git_tag`, `latest` or `custom`.",
    )
    custom_tag: str | None = Field(
        None, validate_default=True, description="The tag, when `tag_strategy` is `custom`."
    )
    credentials_env_prefix: str | None = Field(
        None, description="Prefix of the environment variables holding registry credentials."
    )

    @field_validator("repository")
    @classmethod
    def _repository_format(cls, value: str) -> str:
        if not REPOSITORY_RE.match(value):
            raise ValueError(
                f"invalid repository name {value!r}: use lowercase letters, digits, "
                "'.', '_', '/' and '-', starting and ending with a letter or digit"
            )
        return value

    @field_validator("custom_tag")
    @classmethod
    def _custom_tag_needed(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("tag_strategy") is TagStrategy.CUSTOM and not value:
            raise ValueError("custom_tag is required when tag_strategy is 'custom'")
        return value


class AWSAppRunnerConfig(StrictModel):
    """AWS App Runner settings."""

    region: str = Field(..., description="AWS region, e.g. `us-east-1`.")
    cpu: int = Field(1, description="vCPUs (1, 2 or 4).")
    memory: int = Field(2048, description="Memory in MB (2048, 3072, 4096, 8192 or 12288).")
    ecr_role_arn: str | None = Field(
        None, description="IAM role ARN that lets App Runner pull from ECR."
    )
    health_check_path: str = Field("/health", description="Path probed for health checks.")
    auto_scaling_min: int = Field(1, ge=1, le=25, description="Fewest instances (1-25).")
    auto_scaling_max: int = Field(5, ge=1, le=25, description="Most instances (1-25).")

    @field_validator("ecr_role_arn")
    @classmethod
    def _arn_format(cls, value: str | None) -> str | None:
        if value is not None and not AWS_ROLE_ARN_RE.match(value):
            raise ValueError(
                f"invalid ECR role ARN {value!r}: "
                "expected arn:aws:iam::<12-digit account>:role/<name>"
            )
        return value

    @model_validator(mode="after")
    def _scaling_order(self) -> "AWSAppRunnerConfig":
        if self.auto_scaling_min > self.auto_scaling_max:
            raise ValueError(
                f"auto_scaling_min ({self.auto_scaling_min}) must not exceed "
                f"auto_scaling_max ({self.auto_scaling_max})"
            )
        return self


class GCPCloudRunConfig(StrictModel):
    """Google Cloud Run settings."""

    project_id: str = Field(
        ...,
        description=(
            "GCP project id: 6-30 lowercase letters, digits and hyphens, starting with a "
            "letter and not ending with a hyphen."
        ),
    )
    region: str = Field("us-central1", description="GCP region.")
    memory: str = Field("512Mi", description="Memory, a number followed by `Mi` or `Gi`.")
    cpu: int = Field(1, description="vCPUs.")
    concurrency: int = Field(
        80, ge=1, le=1000, description="Requests served at once by one instance (1-1000)."
    )
    timeout: int = Field(300, ge=1, le=3600, description="Request timeout in seconds (1-3600).")
    min_instances: int = Field(0, ge=0, description="Fewest instances.")
    max_instances: int = Field(100, ge=1, description="Most instances.")

    @field_validator("project_id")
    @classmethod
    def _project_id_format(cls, value: str) -> str:
        if not GCP_PROJECT_ID_RE.match(value):
            raise ValueError(
                f"invalid GCP project id {value!r}: 6-30 lowercase letters, digits and "
                "hyphens, starting with a letter and not ending with a hyphen"
            )
        return value

    @field_validator("memory")
    @classmethod
    def _memory_format(cls, value: str) -> str:
        if not GCP_MEMORY_RE.match(value):
            raise ValueError(f"invalid memory {value!r}: a number followed by Mi or Gi")
        return value


class AzureContainerAppsConfig(StrictModel):
    """Azure Container Apps settings."""

    subscription_id: str = Field(..., description="Azure subscription id (a UUID).")
    resource_group: str = Field(..., description="Resource group to deploy into.")
    environment_name: str | None = Field(None, description="Container Apps environment.")
    location: str = Field("eastus", description="Azure region.")
    cpu: float = Field(1.0, description="vCPUs: 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75 or 2.0.")
    memory: str = Field("2Gi", description="Memory, e.g. `2Gi` (Azure expects 2 GiB per vCPU).")
    ingress_external: bool = Field(False, description="Accept traffic from the public internet.")
    min_replicas: int = Field(0, ge=0, description="Fewest replicas.")
    max_replicas: int = Field(10, ge=1, description="Most replicas.")

    @field_validator("subscription_id")
    @classmethod
    def _subscription_is_uuid(cls, value: str) -> str:
        if not UUID_RE.match(value):
            raise ValueError(f"invalid Azure subscription id {value!r}: expected a UUID")
        return value

    @field_validator("cpu")
    @classmethod
    def _cpu_choice(cls, value: float) -> float:
        if value not in AZURE_CPU_CHOICES:
            choices = ", ".join(str(c) for c in AZURE_CPU_CHOICES)
            raise ValueError(f"invalid cpu {value}: use one of {choices}")
        return value


class CloudTargetConfig(StrictModel):
    """The cloud to deploy to and its settings; only the chosen cloud's block may be set."""

    provider: CloudProvider = Field(..., description="`aws`, `gcp` or `azure`.")
    aws: AWSAppRunnerConfig | None = Field(
        None, validate_default=True, description="AWS App Runner settings (provider `aws`)."
    )
    gcp: GCPCloudRunConfig | None = Field(
        None, validate_default=True, description="Cloud Run settings (provider `gcp`)."
    )
    azure: AzureContainerAppsConfig | None = Field(
        None,
        validate_default=True,
        description="Container Apps settings (provider `azure`).",
    )

    @field_validator("aws", "gcp", "azure")
    @classmethod
    def _matches_provider(cls, value: object, info: ValidationInfo) -> object:
        provider = info.data.get("provider")
        if provider is None:
            return value
        if provider.value == info.field_name and value is None:
            raise ValueError(
                f"{info.field_name} settings are required when provider is '{provider.value}'"
            )
        if provider.value != info.field_name and value is not None:
            raise ValueError(
                f"{info.field_name} settings are not allowed when provider is '{provider.value}'"
            )
        return value


class DeploymentConfig(StrictModel):
    """How `holodeck deploy` packages and publishes the agent."""

    runtime: RuntimeType = Field(RuntimeType.CONTAINER, description="Packaging; `container`.")
    registry: RegistryConfig = Field(..., description="Container registry to push to.")
    target: CloudTargetConfig = Field(..., description="Cloud to deploy to.")
    protocol: ProtocolType = Field(
        ProtocolType.REST, description="API served: `rest`, `ag-ui` or `both`."
    )
    port: int = Field(8080, ge=1, le=65535, description="Container port (1-65535).")
    health_check_path: str = Field("/health", description="Path probed for health checks.")
    environment: dict[str, str] = Field(
        default_factory=dict, description="Environment variables of the container."
    )
    platform: str = Field("linux/amd64", description="Image platform, e.g. `linux/arm64`.")
