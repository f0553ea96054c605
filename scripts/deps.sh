# Sourced by scripts/simclock, scripts/test, scripts/bench and
# scripts/doctor-demo: the Debian packages simclock uses beyond Go, asked
# for per use, so that a command installs only what it uses.
#
#   cyclonedds-dev     Cyclone DDS (the engine ROS 2 uses): headers for the
#                      cgo build of the dds transport, and libddsc, loaded
#                      at run time by pub, monitor, doctor, bag clock and
#                      experiment --transport dds
#   gcc                cgo: the dds transport and lint's tree-sitter parsers
#   cyclonedds-tools   idlc and ddsperf, for the interoperability tests and
#                      the DDS benchmarks
#   g++ libfastrtps-dev fastddsgen
#                      eProsima Fast DDS, for the Fast DDS peer of
#                      internal/fastpeer (mixed-graph tests, doctor-demo);
#                      fastddsgen pulls a Java runtime (~190 MB)
#   python3-rosidl     rosidl_adapter, which turns the diagnostic_msgs .msg
#                      files into the IDL fastddsgen reads, for the Fast DDS
#                      peer that reads doctor's /diagnostics
#   python3-flake8 python3-flake8-import-order
#                      flake8 as ament_flake8 runs it, for the test that
#                      lint --fix output passes it
#   sqlite3            the sqlite3 command-line tool, the baseline of the
#                      .db3 benchmark
#   libxml2-utils      xmllint, which checks lint's JUnit output against
#                      the JUnit schema (tests only)
#   cmake ament-cmake ament-lint python3-colcon-core python3-colcon-cmake
#   python3-colcon-ros python3-colcon-test-result
#                      colcon, ament_cmake and ament_lint_auto, for the test
#                      that runs docs/ament.md's CMake lines under colcon
#                      test (tests only; without their recommends, which
#                      would pull a desktop notifier)
#   make               what colcon build's CMake runs (its default generator
#                      is Unix Makefiles); cmake only recommends it, so the
#                      install without recommends must name it
#
# simclock_need PKG... installs the missing ones when run as root and
# returns 0; without root it prints the apt-get line that would, and
# returns 1, so the caller decides whether it can go on. On a system
# without dpkg nothing is checked (it cannot be), and nothing is printed.
export PATH="$PATH:/usr/local/go/bin"

# The packages the tests and benchmarks use: all of them. Those in
# simclock_test_tools are installed without their recommends.
simclock_all_packages=(cyclonedds-dev cyclonedds-tools gcc g++ libfastrtps-dev fastddsgen python3-rosidl
  python3-flake8 python3-flake8-import-order sqlite3)
simclock_test_tools=(libxml2-utils cmake ament-cmake ament-lint python3-colcon-core python3-colcon-cmake
  python3-colcon-ros python3-colcon-test-result make)

simclock_missing() {
  command -v dpkg >/dev/null 2>&1 || return 0
  local p
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || printf '%s\n' "$p"
  done
}

simclock_need() {
  local missing
  mapfile -t missing < <(simclock_missing "$@")
  ((${#missing[@]})) || return 0
  if [[ "$(id -u)" == 0 ]]; then
    echo "simclock: installing ${missing[*]} (Debian packages)" >&2
    export DEBIAN_FRONTEND=noninteractive
    local recommends=()
    [[ -n "${SIMCLOCK_NO_RECOMMENDS:-}" ]] && recommends=(--no-install-recommends)
    if apt-get update -qq >&2 && apt-get install -y -qq "${recommends[@]}" "${missing[@]}" >/dev/null; then
      return 0
    fi
    echo "simclock: could not install ${missing[*]}" >&2
    return 1
  fi
  echo "simclock: this needs the Debian packages ${missing[*]}; install them with:" >&2
  echo "  sudo apt-get install -y ${missing[*]}" >&2
  return 1
}

# simclock_packages_for ARGS... prints the packages the simclock command
# ARGS uses: none for experiment (in process), predict, bag inspect and
# help; Cyclone DDS and gcc for the commands that speak DDS; gcc for lint.
simclock_packages_for() {
  local words=() a dds=0 skip=0
  for a in "$@"; do
    case "$a" in
      --ros-args) skip=1 ;;
      --) skip=0 ;;
      --transport=dds) dds=1 ;;
      -*) ;;
      *) ((skip)) || words+=("$a") ;;
    esac
  done
  # --transport dds as two words
  local prev=""
  for a in "$@"; do
    [[ "$prev" == --transport && "$a" == dds ]] && dds=1
    prev=$a
  done
  case "${words[0]:-}" in
    pub | monitor | doctor) echo cyclonedds-dev gcc ;;
    bag) [[ "${words[1]:-}" == clock ]] && echo cyclonedds-dev gcc ;;
    experiment) ((dds)) && echo cyclonedds-dev gcc ;;
    lint) echo gcc ;;
  esac
  return 0
}

# simclock_build_flags prints the go build flags this machine can build
# simclock with: cgo when a C compiler is there, the Cyclone DDS
# transport when its headers are (-tags nodds otherwise: every command but
# the DDS ones works, and those say what to install).
simclock_build_flags() {
  if ! command -v "${CC:-gcc}" >/dev/null 2>&1; then
    echo "CGO_ENABLED=0"
    return 0
  fi
  # shellcheck disable=SC2086 # CGO_CFLAGS is a list of flags
  if ! echo '#include <dds/dds.h>' | "${CC:-gcc}" ${CGO_CFLAGS:-} -E -x c - >/dev/null 2>&1; then
    echo "-tags=nodds"
  fi
  return 0
}
