# Sourced by scripts/test and scripts/simclock: installs, on a fresh Debian
# machine, what simclock needs beyond Go modules: Cyclone DDS (the engine
# ROS 2 uses) headers and library for the dds transport, its tools (idlc,
# ddsperf) for the interoperability tests, gcc for cgo, and eProsima Fast DDS
# (libfastrtps-dev, fastddsgen, g++) for the Fast DDS peer of
# internal/fastpeer, which plays rmw_fastrtps nodes in mixed-graph tests,
# and the sqlite3 command-line tool, the baseline of the .db3 benchmark.
export PATH="$PATH:/usr/local/go/bin"
simclock_need=()
for p in cyclonedds-dev cyclonedds-tools gcc g++ libfastrtps-dev fastddsgen sqlite3; do
  dpkg -s "$p" >/dev/null 2>&1 || simclock_need+=("$p")
done
if ((${#simclock_need[@]})); then
  echo "simclock: installing ${simclock_need[*]} (Debian packages)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq "${simclock_need[@]}" >/dev/null
fi
unset simclock_need
