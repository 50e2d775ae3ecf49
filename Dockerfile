# fnhcl as a Crossplane composition function: `fnhcl function serve` answers RunFunction with
# function-hcl's behaviour. Not built in CI.
#
#   docker build -t fnhcl-function .
#   docker run --rm -p 9443:9443 fnhcl-function --insecure      # as crossplane render runs it
#
# In a cluster Crossplane mounts the server certificates and sets TLS_SERVER_CERTS_DIR, which
# `function serve` reads (mutual TLS).

FROM docker.io/library/rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin fnhcl

# glibc and libgcc, nothing else: no shell, no package manager, a non-root user.
FROM gcr.io/distroless/cc-debian12:nonroot
COPY --from=build /src/target/release/fnhcl /usr/local/bin/fnhcl
EXPOSE 9443
USER nonroot:nonroot
# Every interface: the container's port is reached from outside it (`function serve` alone
# keeps plaintext on loopback).
ENTRYPOINT ["/usr/local/bin/fnhcl", "function", "serve", "--address", "0.0.0.0:9443"]
