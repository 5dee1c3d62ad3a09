#!/usr/bin/env bash
# System prerequisites of the test suite: Debian's Chromium (browser tests), Python 3.10+
# with venv (recipe environments), OpenSSH server and client plus iproute2 (SSH training
# computer tests, one of them in its own network namespace), Slurm and munge (Slurm computer
# tests, a single-node cluster they start as root). A few tests mount a tmpfs or
# create a network namespace and so need root: they fail, naming that, when run without it.
# As root with apt, installs what is missing; otherwise stops with the exact command.
set -euo pipefail

missing_pkgs=()
[ -x /usr/bin/chromium ] || missing_pkgs+=(chromium)
if ! command -v python3 >/dev/null || ! python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
  missing_pkgs+=(python3 python3-venv)
else
  tmp=$(mktemp -d)
  if ! python3 -m venv "$tmp/v" >/dev/null 2>&1 || ! "$tmp/v/bin/python" -m pip --version >/dev/null 2>&1; then
    missing_pkgs+=(python3-venv)
  fi
  rm -rf "$tmp"
fi
[ -x /usr/sbin/sshd ] || missing_pkgs+=(openssh-server)
# The reverse-proxy test runs the documented nginx setup with a throw-away TLS certificate.
[ -x /usr/sbin/nginx ] || missing_pkgs+=(nginx-light)
command -v openssl >/dev/null || missing_pkgs+=(openssl)
command -v ssh >/dev/null || missing_pkgs+=(openssh-client)
command -v ip >/dev/null || missing_pkgs+=(iproute2)
# The Slurm computer tests start a single-node cluster: slurmctld, slurmd and munged.
[ -x /usr/sbin/slurmctld ] && [ -x /usr/sbin/slurmd ] || missing_pkgs+=(slurm-wlm)
[ -x /usr/sbin/munged ] || missing_pkgs+=(munge)

if [ "$(id -u)" != 0 ]; then
  echo "Note: not root, so the tmpfs (full disk) and network-namespace (cut link) tests will fail; run the tests as root to check them." >&2
fi
if [ ${#missing_pkgs[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing missing prerequisites: ${missing_pkgs[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing_pkgs[@]}" >/dev/null
  exit 0
fi
echo "Missing prerequisites for the tests: ${missing_pkgs[*]}" >&2
echo "Install them with:  sudo apt-get install -y ${missing_pkgs[*]}" >&2
exit 1
