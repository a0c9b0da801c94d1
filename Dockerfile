# The release image, built by goreleaser (.goreleaser.yaml, dockers_v2) from
# the binary it built: the build context holds linux/amd64/skillsync and
# linux/arm64/skillsync, so this file builds nothing by itself.
#
# BASE is distroless static (CA certificates, tzdata, a nonroot user, no
# shell), or its busybox variant for CI systems that need a shell in the
# image (GitLab).
ARG BASE=gcr.io/distroless/static-debian12:nonroot
FROM ${BASE}

ARG TARGETPLATFORM
ARG VERSION=dev
LABEL org.opencontainers.image.version="${VERSION}"

COPY ${TARGETPLATFORM}/skillsync /usr/local/bin/skillsync
# 65532 is distroless's nonroot user: by number, so that a runtime that
# refuses root without reading /etc/passwd (runAsNonRoot) can tell.
USER 65532:65532
WORKDIR /repo
ENTRYPOINT ["/usr/local/bin/skillsync"]
CMD ["--help"]
