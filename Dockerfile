# syntax=docker/dockerfile:1
# diceref: the API served by granian, with every solved table baked into the image.
#
#   docker build -t diceref --build-arg REVISION="$(git rev-parse HEAD)" \
#       --build-arg CREATED="$(date -u +%Y-%m-%dT%H:%M:%SZ)" .
#   docker run --rm -p 8000:8000 diceref            # ready in about a second
#   docker run --rm -p 8000:8000 -e REDIS_URL=redis://redis:6379/0 diceref
#
# The base image is pinned by digest (python:3.11-slim): a rebuild gets the same system,
# and a new base is a reviewed change of this line (a digest-aware updater can propose it).
#
# Build stage: dependencies from uv.lock, then the project, then the tables.
FROM python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7 AS build
ENV UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    UV_PROJECT_ENVIRONMENT=/app/.venv \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
RUN pip install uv==0.13.9
WORKDIR /src
COPY pyproject.toml uv.lock README.md ./
RUN uv sync --frozen --no-dev --no-install-project
COPY service ./service
RUN uv sync --frozen --no-dev --no-editable

# Solve every table of every game once, at build time, into the image's cache: the service
# then loads them memory-mapped from disk in milliseconds, shared by all its workers.  The
# solver's compiled kernel is kept too (for the house-rules tables solved at run time).
ENV DICEREF_CACHE_DIR=/app/cache DICEREF_KERNEL_CACHE_DIR=/app/kernels PATH=/app/.venv/bin:$PATH
RUN diceref precompute
RUN chmod -R a+rX /app/cache && ls -l /app/cache/tables /app/kernels

# Runtime stage: the virtual environment and the tables, run as an unprivileged user.
FROM python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7
ARG VERSION=0.1.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="diceref" \
      org.opencontainers.image.description="Referee and coach for dice games, served over HTTP" \
      org.opencontainers.image.version="$VERSION" \
      org.opencontainers.image.revision="$REVISION" \
      org.opencontainers.image.created="$CREATED" \
      org.opencontainers.image.base.name="docker.io/library/python:3.11-slim" \
      org.opencontainers.image.base.digest="sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7"
RUN groupadd --system --gid 10001 diceref \
    && useradd --system --uid 10001 --gid diceref --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin diceref
COPY --from=build /app/.venv /app/.venv
COPY --from=build /app/cache /app/cache
# Baked, and writable by the service's user: a host whose CPU differs from the build's
# compiles the kernel once and keeps it here (read-only root filesystems: compiled per process).
COPY --from=build --chown=10001:10001 /app/kernels /app/kernels
ENV PATH=/app/.venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DICEREF_CACHE_DIR=/app/cache \
    DICEREF_KERNEL_CACHE_DIR=/app/kernels \
    DICEREF_HOST=0.0.0.0 \
    DICEREF_PORT=8000 \
    DICEREF_WORKERS=2 \
    DICEREF_LOG_FORMAT=json \
    PROMETHEUS_MULTIPROC_DIR=/tmp/diceref-metrics
USER 10001:10001
WORKDIR /tmp
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('DICEREF_PORT', '8000') + '/healthz', timeout=2)"]
ENTRYPOINT ["diceref"]
CMD ["serve"]
