// fastpeer: a Fast DDS 2.9 program that plays ROS 2 Jazzy nodes the way
// rmw_fastrtps_cpp does, on loopback only. It is simclock's "peer no one
// here wrote": see docs/fastdds-peer.md for what it emulates and why.
//
// Built by package internal/fastpeer (g++ -std=c++17 peer.cpp -lfastrtps
// -lfastcdr). Every line it prints on stdout is "<kind> key=value ...",
// parsed by that package; diagnostics go to stderr.
//
// What it reproduces from rmw_fastrtps_cpp (Jazzy):
//  - one participant per process, USER_DATA "enclave=/;", participant name
//    the enclave;
//  - topic names rt/<ros name>, type names pkg::msg::dds_::Name_;
//  - endpoint USER_DATA "typehash=RIHS01_<hex>;";
//  - XCDR1 payloads (encapsulation CDR_LE) and a data representation QoS
//    of XCDR only on both readers and writers;
//  - no XTypes type information: auto_fill_type_object(false) and
//    auto_fill_type_information(false) on every type (--xtypes turns both on
//    and registers a TypeObject, as a plain Fast DDS application would);
//  - ros_discovery_info (rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_)
//    writer RELIABLE, TRANSIENT_LOCAL, KEEP_LAST 1 and reader KEEP_ALL,
//    republished whenever a node or endpoint is added, with 16-byte GIDs
//    (GUID prefix then entity id);
//  - writers SYNCHRONOUS, PREALLOCATED_WITH_REALLOC, data sharing off.
//
// Transport (not configurable): builtin transports off, one UDPv4
// transport whitelisted to 127.0.0.1, unicast metatraffic and user locators
// on 127.0.0.1, initial peers 127.0.0.1 at the RTPS discovery ports of
// participant indices 0..31 of the domain, no multicast locator at all.

#include <fastdds/dds/core/status/IncompatibleQosStatus.hpp>
#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/domain/DomainParticipantListener.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/DataWriterListener.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/publisher/qos/DataWriterQos.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/subscriber/qos/DataReaderQos.hpp>
#include <fastdds/dds/topic/Topic.hpp>
#include <fastdds/dds/topic/TopicDataType.hpp>
#include <fastdds/dds/topic/TypeSupport.hpp>
#include <fastdds/rtps/transport/UDPv4TransportDescriptor.h>
#include <fastrtps/types/DynamicPubSubType.h>
#include <fastrtps/types/DynamicTypeBuilder.h>
#include <fastrtps/types/DynamicTypeBuilderFactory.h>
#include <fastrtps/types/DynamicTypeBuilderPtr.h>
#include <fastrtps/types/MemberDescriptor.h>
#include <fastrtps/utils/IPLocator.h>

#include <linux/close_range.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace fdds = eprosima::fastdds::dds;
namespace frtps = eprosima::fastrtps::rtps;
namespace ftypes = eprosima::fastrtps::types;

namespace {

// ---------------------------------------------------------------- output

std::mutex out_mu;

// emit prints one event line on stdout and flushes it.
void emit(const std::string& line) {
  std::lock_guard<std::mutex> lock(out_mu);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

[[noreturn]] void die(const std::string& msg) {
  std::fprintf(stderr, "fastpeer: %s\n", msg.c_str());
  std::exit(2);
}

std::string hex(const uint8_t* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) {
    s += digits[p[i] >> 4];
    s += digits[p[i] & 15];
  }
  return s;
}

// A Gid is rmw_fastrtps's 16-byte GID of a GUID: prefix, then entity id.
struct Gid {
  uint8_t b[16];
};

Gid gid_of(const frtps::GUID_t& g) {
  Gid r{};
  std::memcpy(r.b, g.guidPrefix.value, 12);
  std::memcpy(r.b + 12, g.entityId.value, 4);
  return r;
}

std::string gid_hex(const Gid& g) { return hex(g.b, 16); }

// word makes s one printable token for a key=value field: spaces,
// control and non-ASCII bytes become underscores.
std::string word(std::string s) {
  for (auto& c : s) {
    if (c <= ' ' || c > '~') c = '_';
  }
  return s;
}

// ---------------------------------------------------------------- time

// parse_seconds reads a decimal number of seconds ("-1.5", "100",
// "0.001") exactly into nanoseconds.
int64_t parse_seconds(const std::string& s) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  int64_t whole = 0, frac = 0;
  int digits = 0, fdigits = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
    if (whole > 9000000000LL) die("seconds out of range: " + s);
    whole = whole * 10 + (s[i] - '0');
  }
  if (i < s.size() && s[i] == '.') {
    for (i++; i < s.size() && s[i] >= '0' && s[i] <= '9'; i++, fdigits++) {
      if (fdigits >= 9) die("more than 9 decimals in seconds: " + s);
      frac = frac * 10 + (s[i] - '0');
    }
  }
  if (i != s.size() || digits + fdigits == 0) die("not a number of seconds: " + s);
  for (int k = fdigits; k < 9; k++) frac *= 10;
  int64_t ns = whole * 1000000000LL + frac;
  return neg ? -ns : ns;
}

int64_t wall_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// split_time turns nanoseconds into builtin_interfaces/Time (sec, nanosec),
// nanosec in [0, 1e9).
void split_time(int64_t ns, int32_t* sec, uint32_t* nsec) {
  int64_t s = ns / 1000000000LL, r = ns % 1000000000LL;
  if (r < 0) {
    r += 1000000000LL;
    s--;
  }
  *sec = static_cast<int32_t>(s);
  *nsec = static_cast<uint32_t>(r);
}

// ---------------------------------------------------------------- CDR

// Cdr writes XCDR1 little endian, aligned from after the 4-byte
// encapsulation header, as rmw_fastrtps's fastcdr does.
class Cdr {
 public:
  Cdr() : b_{0x00, 0x01, 0x00, 0x00} {}  // CDR_LE, options 0
  void align(size_t n) {
    while ((b_.size() - 4) % n) b_.push_back(0);
  }
  void u32(uint32_t v) {
    align(4);
    put(&v, 4);
  }
  void i32(int32_t v) {
    align(4);
    put(&v, 4);
  }
  void u8(uint8_t v) { put(&v, 1); }
  void i64(int64_t v) {
    align(8);
    put(&v, 8);
  }
  void f64(double v) {
    align(8);
    put(&v, 8);
  }
  void str(const std::string& s) {
    u32(static_cast<uint32_t>(s.size() + 1));
    put(s.data(), s.size());
    b_.push_back(0);
  }
  void bytes(const uint8_t* p, size_t n) { put(p, n); }
  void time(int64_t ns) {
    int32_t s;
    uint32_t n;
    split_time(ns, &s, &n);
    i32(s);
    u32(n);
  }
  std::vector<uint8_t> done() {
    // rmw pads serialized messages to a multiple of 4 bytes.
    while (b_.size() % 4) b_.push_back(0);
    return b_;
  }

 private:
  void put(const void* p, size_t n) {
    auto c = static_cast<const uint8_t*>(p);
    b_.insert(b_.end(), c, c + n);
  }
  std::vector<uint8_t> b_;
};

// CdrReader reads XCDR1 of either endianness, with bounds checks.
class CdrReader {
 public:
  explicit CdrReader(const std::vector<uint8_t>& b) : b_(b) {
    if (b_.size() < 4 || b_[0] != 0 || b_[1] > 1) throw std::runtime_error("bad encapsulation header");
    le_ = b_[1] == 1;
    pos_ = 4;
  }
  uint32_t u32() {
    align(4);
    need(4);
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
      uint32_t byte = b_[pos_ + (le_ ? i : 3 - i)];
      v |= byte << (8 * i);
    }
    pos_ += 4;
    return v;
  }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  std::string str() {
    uint32_t n = u32();
    if (n == 0) throw std::runtime_error("string without terminating NUL");
    need(n);
    std::string s(reinterpret_cast<const char*>(&b_[pos_]), n - 1);
    pos_ += n;
    return s;
  }
  void bytes(uint8_t* p, size_t n) {
    need(n);
    std::memcpy(p, &b_[pos_], n);
    pos_ += n;
  }
  size_t remaining() const { return b_.size() - pos_; }

 private:
  void align(size_t n) {
    while ((pos_ - 4) % n) pos_++;
  }
  void need(size_t n) {
    if (pos_ > b_.size() || b_.size() - pos_ < n) throw std::runtime_error("truncated CDR");
  }
  const std::vector<uint8_t>& b_;
  size_t pos_;
  bool le_;
};

// ---------------------------------------------------------------- types

// RawData is one serialized sample, CDR encapsulation header included.
struct RawData {
  std::vector<uint8_t> bytes;
};

// RawType is a TopicDataType whose samples are pre-serialized CDR: the
// same bytes rmw_fastrtps's TypeSupport produces for the ROS type, so the
// wire is identical without generated code.
class RawType : public fdds::TopicDataType {
 public:
  RawType(const std::string& name, bool xtypes) {
    setName(name.c_str());
    m_typeSize = 4 + 512;  // a hint: PREALLOCATED_WITH_REALLOC grows it
    m_isGetKeyDefined = false;
    // rmw_fastrtps_shared_cpp TypeSupport(): both false, so EDP announces
    // no TypeInformation / TypeObject / TypeIdentifier.
    auto_fill_type_object(xtypes);
    auto_fill_type_information(xtypes);
  }
  bool serialize(void* data, frtps::SerializedPayload_t* payload) override {
    auto d = static_cast<RawData*>(data);
    if (d->bytes.size() < 4 || d->bytes.size() > payload->max_size) return false;
    std::memcpy(payload->data, d->bytes.data(), d->bytes.size());
    payload->length = static_cast<uint32_t>(d->bytes.size());
    payload->encapsulation = d->bytes[1] == 1 ? CDR_LE : CDR_BE;
    return true;
  }
  bool deserialize(frtps::SerializedPayload_t* payload, void* data) override {
    auto d = static_cast<RawData*>(data);
    d->bytes.assign(payload->data, payload->data + payload->length);
    return true;
  }
  std::function<uint32_t()> getSerializedSizeProvider(void* data) override {
    auto d = static_cast<RawData*>(data);
    return [d]() { return static_cast<uint32_t>(d->bytes.size()); };
  }
  void* createData() override { return new RawData(); }
  void deleteData(void* data) override { delete static_cast<RawData*>(data); }
  bool getKey(void*, frtps::InstanceHandle_t*, bool) override { return false; }
};

// A RosType is what the peer needs to know of a ROS message type.
struct RosType {
  const char* ros;   // rosgraph_msgs/msg/Clock
  const char* dds;   // rosgraph_msgs::msg::dds_::Clock_
  const char* hash;  // RIHS01 type hash (REP 2011), Jazzy
};

// The hashes are checked by package internal/fastpeer's tests, which
// recompute them from the type descriptions with rosidl's algorithm.
const RosType kClock{"rosgraph_msgs/msg/Clock", "rosgraph_msgs::msg::dds_::Clock_",
                     "RIHS01_692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564"};
const RosType kImu{"sensor_msgs/msg/Imu", "sensor_msgs::msg::dds_::Imu_",
                   "RIHS01_7d9a00ff131080897a5ec7e26e315954b8eae3353c3f995c55faf71574000b5b"};
const RosType kLog{"rcl_interfaces/msg/Log", "rcl_interfaces::msg::dds_::Log_",
                   "RIHS01_e28ce254ca8abc06abf92773b74602cdbf116ed34fbaf294fb9f81da9f318eac"};
const RosType kParameterEvent{"rcl_interfaces/msg/ParameterEvent", "rcl_interfaces::msg::dds_::ParameterEvent_",
                              "RIHS01_043e627780fcad87a22d225bc2a037361dba713fca6a6b9f4b869a5aa0393204"};
const RosType kTF{"tf2_msgs/msg/TFMessage", "tf2_msgs::msg::dds_::TFMessage_",
                  "RIHS01_e369d0f05a23ae52508854b66f6aa0437f3449d652e8cbf22d5abe85d020f087"};
const RosType kDiscovery{"rmw_dds_common/msg/ParticipantEntitiesInfo",
                         "rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_",
                         "RIHS01_91a0593bacdcc50ea9bdcf849a938b128412cc1ea821245c663bcd26f83c295e"};

// ---------------------------------------------------------------- typed readers

// A TypedReader reads a ROS type through Fast DDS code generated for it
// (fastddsgen -typeros2 from the type's IDL, as rosidl makes it from the
// .msg) rather than through the peer's own CDR: the way rmw_fastrtps_cpp
// reads with its generated type support. A build of the peer that links
// such code registers it (cpp/typed/*.cpp); the plain peer has none.
struct TypedReader {
  RosType type;
  // support makes the type's TopicDataType (its fastddsgen PubSubType).
  std::function<fdds::TypeSupport()> support;
  // take takes every sample r holds, decoded by the generated code, and
  // prints what it got.
  std::function<void(fdds::DataReader* r, const std::string& node, const std::string& topic)> take;
};

std::map<std::string, TypedReader>& typed_readers() {
  static std::map<std::string, TypedReader> m;  // by ROS type name
  return m;
}

// register_typed_reader makes a type readable with --sub; call it from a
// static initializer.
bool register_typed_reader(TypedReader t) {
  std::string name = t.type.ros;
  typed_readers()[name] = std::move(t);
  return true;
}

// pct makes s one token of a key=value field that loses nothing: bytes
// outside [A-Za-z0-9_.:/~-] become %XX (Go's url.PathUnescape undoes it).
std::string pct(const std::string& s) {
  static const char digits[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (isalnum(c) || c == '_' || c == '.' || c == ':' || c == '/' || c == '~' || c == '-') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += digits[c >> 4];
      out += digits[c & 15];
    }
  }
  return out;
}

// register_xtypes_clock registers a TypeObject for Clock_ (and Time_) in
// Fast DDS's process-wide TypeObjectFactory, as code generated by
// fastddsgen -typeobject or a DynamicType does. With auto_fill on, EDP then
// announces TypeInformation and TypeObject for rt/clock endpoints.
void register_xtypes_clock(fdds::DomainParticipant* p) {
  auto f = ftypes::DynamicTypeBuilderFactory::get_instance();
  ftypes::DynamicTypeBuilder_ptr time_b = f->create_struct_builder();
  time_b->set_name("builtin_interfaces::msg::dds_::Time_");
  time_b->add_member(0, "sec", f->create_int32_type());
  time_b->add_member(1, "nanosec", f->create_uint32_type());
  ftypes::DynamicType_ptr time_t = time_b->build();
  ftypes::DynamicTypeBuilder_ptr clock_b = f->create_struct_builder();
  clock_b->set_name(kClock.dds);
  clock_b->add_member(0, "clock", time_t);
  ftypes::DynamicType_ptr clock_t = clock_b->build();
  // Registered under another name: the TypeObjectFactory entry is keyed by
  // the dynamic type's own name, which is Clock_'s.
  fdds::TypeSupport ts(new ftypes::DynamicPubSubType(clock_t));
  if (ts.register_type(p, "fastpeer_xtypes_Clock_") != ReturnCode_t::RETCODE_OK) {
    die("cannot register the XTypes TypeObject of " + std::string(kClock.dds));
  }
}

// ---------------------------------------------------------------- QoS

enum class Rel { reliable, best_effort };
enum class Dur { volatile_, transient_local };
enum class Hist { keep_last, keep_all };

struct Qos {
  Rel rel = Rel::reliable;
  Dur dur = Dur::volatile_;
  Hist hist = Hist::keep_last;
  int32_t depth = 10;
  int64_t lifespan_s = 0;  // 0: infinite
};

const char* name(Rel r) { return r == Rel::reliable ? "reliable" : "best_effort"; }
const char* name(Dur d) { return d == Dur::volatile_ ? "volatile" : "transient_local"; }
const char* name(Hist h) { return h == Hist::keep_last ? "keep_last" : "keep_all"; }

Rel parse_rel(const std::string& s) {
  if (s == "reliable") return Rel::reliable;
  if (s == "best_effort") return Rel::best_effort;
  die("reliability must be reliable or best_effort, not " + s);
}

Dur parse_dur(const std::string& s) {
  if (s == "volatile") return Dur::volatile_;
  if (s == "transient_local") return Dur::transient_local;
  die("durability must be volatile or transient_local, not " + s);
}

// fill applies q the way rmw_fastrtps_shared_cpp's
// fill_data_entity_qos_from_profile does: history, durability, reliability,
// depth, USER_DATA typehash; then the XCDR-only data representation.
template <typename EntityQos>
void fill(const Qos& q, const RosType& t, EntityQos& e) {
  e.history().kind = q.hist == Hist::keep_last ? fdds::KEEP_LAST_HISTORY_QOS : fdds::KEEP_ALL_HISTORY_QOS;
  e.history().depth = q.depth;
  e.durability().kind =
      q.dur == Dur::volatile_ ? fdds::VOLATILE_DURABILITY_QOS : fdds::TRANSIENT_LOCAL_DURABILITY_QOS;
  e.reliability().kind =
      q.rel == Rel::reliable ? fdds::RELIABLE_RELIABILITY_QOS : fdds::BEST_EFFORT_RELIABILITY_QOS;
  if (q.lifespan_s > 0) e.lifespan().duration = eprosima::fastrtps::Duration_t(static_cast<int32_t>(q.lifespan_s), 0);
  std::string ud = std::string("typehash=") + t.hash + ";";
  std::vector<uint8_t> v(ud.begin(), ud.end());
  e.user_data().resize(v.size());
  e.user_data().setValue(v);
  e.endpoint().history_memory_policy = frtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
}

// ---------------------------------------------------------------- graph

struct NodeInfo {
  std::string ns, name;
  std::vector<Gid> readers, writers;
  std::string fq() const { return ns == "/" ? "/" + name : ns + "/" + name; }
};

// ---------------------------------------------------------------- messages
// The serializations of the messages the peer sends. Each is checked
// against code that fastddsgen generates from the same types
// (cpp/check/check.cpp, run by package internal/fastpeer's tests).

// encode_entities serializes rmw_dds_common/msg/ParticipantEntitiesInfo:
// Gid gid (char[16]), NodeEntitiesInfo[] (string ns, string name, Gid[]
// readers, Gid[] writers).
std::vector<uint8_t> encode_entities(const Gid& participant, const std::vector<NodeInfo>& nodes) {
  Cdr c;
  c.bytes(participant.b, 16);
  c.u32(static_cast<uint32_t>(nodes.size()));
  for (auto& n : nodes) {
    c.str(n.ns);
    c.str(n.name);
    c.u32(static_cast<uint32_t>(n.readers.size()));
    for (auto& g : n.readers) c.bytes(g.b, 16);
    c.u32(static_cast<uint32_t>(n.writers.size()));
    for (auto& g : n.writers) c.bytes(g.b, 16);
  }
  return c.done();
}

// encode_clock serializes rosgraph_msgs/msg/Clock.
std::vector<uint8_t> encode_clock(int64_t ns) {
  Cdr c;
  c.time(ns);
  return c.done();
}

// encode_imu serializes sensor_msgs/msg/Imu: Header header, Quaternion
// orientation, float64[9] orientation_covariance, Vector3
// angular_velocity, float64[9], Vector3 linear_acceleration, float64[9].
// The values are those of a level, resting IMU.
std::vector<uint8_t> encode_imu(int64_t stamp, const std::string& frame_id) {
  Cdr c;
  c.time(stamp);
  c.str(frame_id);
  for (double v : {0.0, 0.0, 0.0, 1.0}) c.f64(v);
  for (int k = 0; k < 9; k++) c.f64(0);
  for (int k = 0; k < 3; k++) c.f64(0.01 * k);
  for (int k = 0; k < 9; k++) c.f64(0);
  for (double v : {0.0, 0.0, 9.81}) c.f64(v);
  for (int k = 0; k < 9; k++) c.f64(0);
  return c.done();
}

// A Transform is one TransformStamped of a TFMessage: header.stamp,
// header.frame_id (the parent) and child_frame_id.
struct Transform {
  int64_t stamp;
  std::string parent, child;
};

// encode_tf serializes tf2_msgs/msg/TFMessage: TransformStamped[]
// (Header header, string child_frame_id, Transform transform: Vector3
// translation, Quaternion rotation). Each transform is a frame 0.1 m
// ahead of its parent, not rotated.
std::vector<uint8_t> encode_tf(const std::vector<Transform>& ts) {
  Cdr c;
  c.u32(static_cast<uint32_t>(ts.size()));
  for (auto& t : ts) {
    c.time(t.stamp);
    c.str(t.parent);
    c.str(t.child);
    for (double v : {0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0}) c.f64(v);
  }
  return c.done();
}

// encode_parameter_event serializes the rcl_interfaces/msg/ParameterEvent
// of a node declaring the boolean parameter name.
std::vector<uint8_t> encode_parameter_event(int64_t stamp, const std::string& node, const std::string& name,
                                            bool value) {
  Cdr ev;
  ev.time(stamp);
  ev.str(node);
  ev.u32(1);  // new_parameters
  ev.str(name);
  ev.u8(1);  // ParameterValue.type PARAMETER_BOOL
  ev.u8(value ? 1 : 0);
  ev.i64(0);                              // integer_value
  ev.f64(0);                              // double_value
  ev.str("");                             // string_value
  for (int k = 0; k < 5; k++) ev.u32(0);  // the five empty array values
  ev.u32(0);                              // changed_parameters
  ev.u32(0);                              // deleted_parameters
  return ev.done();
}

// encode_log serializes rcl_interfaces/msg/Log.
std::vector<uint8_t> encode_log(int64_t stamp, uint8_t level, const std::string& name, const std::string& msg,
                                const std::string& file, const std::string& function, uint32_t line) {
  Cdr log;
  log.time(stamp);
  log.u8(level);
  log.str(name);
  log.str(msg);
  log.str(file);
  log.str(function);
  log.u32(line);
  return log.done();
}

// Graph is this participant's ros_discovery_info content.
struct Graph {
  std::mutex mu;
  Gid participant{};
  std::vector<NodeInfo> nodes;

  std::vector<uint8_t> message() {
    std::lock_guard<std::mutex> lock(mu);
    return encode_entities(participant, nodes);
  }
};

// ---------------------------------------------------------------- options

// How a node stamps: its ROS time with use_sim_time (the last /clock, 0
// before the first), the system clock, 0, or freerun: the first /clock it
// received plus the wall time since, a node that keeps its own time once
// started (it does not follow /clock back).
enum class Stamp { sim, wall, zero, freerun };

Stamp parse_stamp(const std::string& s) {
  if (s == "sim") return Stamp::sim;
  if (s == "wall") return Stamp::wall;
  if (s == "zero") return Stamp::zero;
  if (s == "freerun") return Stamp::freerun;
  die("a stamp must be sim, wall, zero or freerun, not " + s);
}

const char* name(Stamp s) {
  switch (s) {
    case Stamp::sim:
      return "sim";
    case Stamp::wall:
      return "wall";
    case Stamp::zero:
      return "zero";
    case Stamp::freerun:
      return "freerun";
  }
  return "?";
}

struct NodeOpts {
  std::string ns = "/", name;
  bool sim_time = false;
  bool rclcpp = false;  // the endpoints rclcpp gives every node
  Qos clock_reader{Rel::best_effort, Dur::volatile_, Hist::keep_last, 1};  // rclcpp ClockQoS
  std::string clock_reader_topic = "/clock";  // remapped: --ros-args -r /clock:=/robot1/clock
  std::string clock_reader_partition;         // set by a Fast DDS XML profile; none in rmw
  bool pub_clock = false;
  std::string clock_topic = "/clock";  // a bridge or relay publishes /robot1/clock
  bool clock_malformed = false;        // 8-byte payloads that do not decode as a Clock
  int64_t clock_jump_every = 0, clock_jump = 0;  // every that many messages, add clock_jump
  int64_t clock_stall_at = -1;                 // from that many messages on, the value stands still
  Qos clock_writer{Rel::reliable, Dur::volatile_, Hist::keep_last, 10};  // ros_gz_bridge
  int64_t clock_start = 0, clock_step = 10000000;
  double clock_rate = 100;
  int64_t clock_count = 0;
  std::string imu_topic;
  std::string imu_fq;  // imu_topic resolved, checked while parsing
  Stamp stamp = Stamp::sim;
  int64_t stamp_offset = 0;
  double imu_rate = 50;
  std::string frame_id = "imu_link";
  Qos imu_writer{Rel::reliable, Dur::volatile_, Hist::keep_last, 10};
  // tf: transforms broadcast on /tf (tf2_ros TransformBroadcaster:
  // reliable, volatile, keep last 100) at tf_rate, and static ones sent
  // once on /tf_static (StaticTransformBroadcaster: reliable, transient
  // local, keep last 1), as "parent:child".
  std::vector<std::pair<std::string, std::string>> tf, tf_static;
  std::string tf_topic = "/tf";  // remapped: /robot1/tf
  Stamp tf_stamp = Stamp::sim;
  int64_t tf_stamp_offset = 0;
  double tf_rate = 20;
  // Subscriptions read with generated code (TypedReader), as (topic,
  // ROS type), with rclcpp's default QoS(10): reliable, volatile, keep
  // last 10.
  std::vector<std::pair<std::string, std::string>> subs;
};

struct Opts {
  int domain = -1;
  int64_t duration = 0;
  bool xtypes = false;
  bool raw_names = false;  // take node and topic names as given: hostile names for graph tools
  std::vector<NodeOpts> nodes;
};

void usage() {
  std::fprintf(stderr,
               "usage: fastpeer [--domain N] [--duration SEC] [--xtypes] [--raw-names]\n"
               "  [--node [/ns/]name [node options]]...\n"
               "node options (apply to the last --node):\n"
               "  --rclcpp-endpoints            add what rclcpp gives every node: /rosout and\n"
               "                                /parameter_events writers, a /parameter_events reader\n"
               "  --use-sim-time                subscribe to /clock as rclcpp's TimeSource does\n"
               "  --clock-reader-reliability R  best_effort (rclcpp ClockQoS) or reliable\n"
               "  --clock-reader-durability D  volatile or transient_local\n"
               "  --clock-reader-topic T        the time source reads T (remapped /clock)\n"
               "  --clock-reader-partition P    the /clock reader's subscriber is in DDS partition P\n"
               "  --pub-clock                   publish /clock (rosgraph_msgs/msg/Clock)\n"
               "  --clock-topic T               publish it on T instead of /clock\n"
               "  --clock-start SEC --clock-step SEC --clock-rate HZ --clock-count N\n"
               "  --clock-reliability R --clock-durability D --clock-depth N\n"
               "  --clock-malformed             publish payloads that do not decode as a Clock\n"
               "  --clock-jump-every N --clock-jump SEC  every N messages, jump by SEC\n"
               "  --clock-stall-at N            from N messages on, the value stands still\n"
               "  --pub-imu TOPIC               publish sensor_msgs/msg/Imu\n"
               "  --stamp sim|wall|zero --stamp-offset SEC --imu-rate HZ --frame-id ID\n"
               "  --imu-reliability R\n"
               "  --pub-tf PARENT:CHILD         broadcast a transform on /tf (repeatable)\n"
               "  --pub-tf-static PARENT:CHILD  send a static transform on /tf_static (repeatable)\n"
               "  --tf-topic T --tf-stamp sim|wall|zero|freerun --tf-stamp-offset SEC --tf-rate HZ\n"
               "  --sub TOPIC TYPE              subscribe, reading TYPE with code generated for it (a\n"
               "                                peer built with that type only)\n"
               "--raw-names takes node names and topics as given (escapes, any length), to\n"
               "test what graph tools print.\n");
  std::exit(2);
}

// split_node_name turns "/a/b/name" into ("/a/b", "name"), "name" into
// ("/", "name").
void split_node_name(const std::string& fq, NodeOpts* n, bool raw) {
  if (fq.empty() || fq.back() == '/') die("invalid node name " + fq);
  auto slash = fq.rfind('/');
  if (slash == std::string::npos) {
    n->ns = "/";
    n->name = fq;
  } else {
    n->ns = slash == 0 ? "/" : fq.substr(0, slash);
    n->name = fq.substr(slash + 1);
    if (n->ns[0] != '/') n->ns = "/" + n->ns;
  }
  if (raw) return;
  for (char c : n->name) {
    if (!(isalnum(static_cast<unsigned char>(c)) || c == '_')) die("invalid node name " + fq);
  }
}

double parse_double(const std::string& s) {
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != 0 || !(v > 0)) die("want a positive number, not " + s);
  return v;
}

int64_t parse_int(const std::string& s) {
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != 0 || v < 0) die("want a non-negative integer, not " + s);
  return v;
}

// resolve applies ROS name resolution of a topic for a node: absolute
// names stay, "~/x" is under the node's name, others under its namespace.
// The result must be a valid fully qualified ROS name.
std::string resolve(const NodeOpts& n, const std::string& topic, bool raw) {
  std::string ns = n.ns == "/" ? "" : n.ns;
  if (topic.empty()) die("empty topic name");
  std::string fq;
  if (topic[0] == '/') fq = topic;
  else if (topic.rfind("~/", 0) == 0) fq = ns + "/" + n.name + topic.substr(1);
  else fq = ns + "/" + topic;
  if (raw) return fq;
  // Tokens: [A-Za-z_][A-Za-z0-9_]*, separated by single slashes.
  bool token_start = false;
  for (size_t i = 0; i < fq.size(); i++) {
    char c = fq[i];
    if (c == '/') {
      if (token_start && i > 0) die("invalid topic name " + topic + " (resolved to " + fq + ")");
      token_start = true;
    } else if (isalpha(static_cast<unsigned char>(c)) || c == '_' || (!token_start && isdigit(static_cast<unsigned char>(c)))) {
      token_start = false;
    } else {
      die("invalid topic name " + topic + " (resolved to " + fq + ")");
    }
  }
  if (token_start) die("invalid topic name " + topic + " (resolved to " + fq + ")");
  return fq;
}

Opts parse(int argc, char** argv) {
  Opts o;
  auto node = [&]() -> NodeOpts& {
    if (o.nodes.empty()) {
      o.nodes.emplace_back();
      o.nodes.back().name = "fastpeer";
    }
    return o.nodes.back();
  };
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&]() -> std::string {
      if (i + 1 >= argc) die("missing value after " + a);
      return argv[++i];
    };
    if (a == "--domain") {
      o.domain = static_cast<int>(parse_int(val()));
      if (o.domain > 232) die("domain must be 0 to 232");
    } else if (a == "--duration") {
      o.duration = parse_seconds(val());
    } else if (a == "--xtypes") {
      o.xtypes = true;
    } else if (a == "--raw-names") {
      o.raw_names = true;
    } else if (a == "--node") {
      o.nodes.emplace_back();
      split_node_name(val(), &o.nodes.back(), o.raw_names);
    } else if (a == "--rclcpp-endpoints") {
      node().rclcpp = true;
    } else if (a == "--use-sim-time") {
      node().sim_time = true;
    } else if (a == "--clock-reader-reliability") {
      node().clock_reader.rel = parse_rel(val());
    } else if (a == "--clock-reader-durability") {
      node().clock_reader.dur = parse_dur(val());
    } else if (a == "--clock-reader-topic") {
      node().clock_reader_topic = val();
    } else if (a == "--clock-reader-partition") {
      node().clock_reader_partition = val();
    } else if (a == "--clock-topic") {
      node().clock_topic = val();
    } else if (a == "--clock-malformed") {
      node().clock_malformed = true;
    } else if (a == "--clock-jump-every") {
      node().clock_jump_every = parse_int(val());
    } else if (a == "--clock-jump") {
      std::string v = val();
      node().clock_jump = parse_seconds(v);
    } else if (a == "--clock-stall-at") {
      node().clock_stall_at = parse_int(val());
    } else if (a == "--pub-clock") {
      node().pub_clock = true;
    } else if (a == "--clock-start") {
      node().clock_start = parse_seconds(val());
    } else if (a == "--clock-step") {
      node().clock_step = parse_seconds(val());
    } else if (a == "--clock-rate") {
      node().clock_rate = parse_double(val());
    } else if (a == "--clock-count") {
      node().clock_count = parse_int(val());
    } else if (a == "--clock-reliability") {
      node().clock_writer.rel = parse_rel(val());
    } else if (a == "--clock-durability") {
      node().clock_writer.dur = parse_dur(val());
    } else if (a == "--clock-depth") {
      node().clock_writer.depth = static_cast<int32_t>(parse_int(val()));
    } else if (a == "--pub-imu") {
      node().imu_topic = val();
    } else if (a == "--stamp") {
      std::string s = val();
      if (s == "sim") node().stamp = Stamp::sim;
      else if (s == "wall") node().stamp = Stamp::wall;
      else if (s == "zero") node().stamp = Stamp::zero;
      else die("--stamp must be sim, wall or zero");
    } else if (a == "--stamp-offset") {
      node().stamp_offset = parse_seconds(val());
    } else if (a == "--imu-rate") {
      node().imu_rate = parse_double(val());
    } else if (a == "--frame-id") {
      node().frame_id = val();
    } else if (a == "--imu-reliability") {
      node().imu_writer.rel = parse_rel(val());
    } else if (a == "--pub-tf" || a == "--pub-tf-static") {
      std::string v = val();
      auto colon = v.find(':');
      if (colon == std::string::npos || colon == 0 || colon + 1 == v.size()) die(a + " wants PARENT:CHILD, not " + v);
      (a == "--pub-tf" ? node().tf : node().tf_static).emplace_back(v.substr(0, colon), v.substr(colon + 1));
    } else if (a == "--sub") {
      std::string topic = val();
      std::string type = val();
      node().subs.emplace_back(topic, type);
    } else if (a == "--tf-topic") {
      node().tf_topic = val();
    } else if (a == "--tf-stamp") {
      node().tf_stamp = parse_stamp(val());
    } else if (a == "--tf-stamp-offset") {
      node().tf_stamp_offset = parse_seconds(val());
    } else if (a == "--tf-rate") {
      node().tf_rate = parse_double(val());
    } else if (a == "-h" || a == "--help") {
      usage();
    } else {
      std::fprintf(stderr, "fastpeer: unknown option %s\n", a.c_str());
      usage();
    }
  }
  if (o.domain < 0) {
    const char* d = std::getenv("ROS_DOMAIN_ID");
    o.domain = d && *d ? static_cast<int>(parse_int(d)) : 0;
  }
  if (o.nodes.empty()) node();
  for (auto& n : o.nodes) {
    if (n.stamp == Stamp::sim && !n.imu_topic.empty() && !n.sim_time) {
      die("node " + n.name + ": --stamp sim needs --use-sim-time (without it rclcpp stamps wall time: use --stamp wall)");
    }
    if (n.clock_step < 0) die("--clock-step must not be negative");
    if (!n.imu_topic.empty()) n.imu_fq = resolve(n, n.imu_topic, o.raw_names);
    bool tf = !n.tf.empty() || !n.tf_static.empty();
    if (tf && (n.tf_stamp == Stamp::sim || n.tf_stamp == Stamp::freerun) && !n.sim_time) {
      die("node " + n.name + ": --tf-stamp " + name(n.tf_stamp) + " needs --use-sim-time");
    }
    if (tf) n.tf_topic = resolve(n, n.tf_topic, o.raw_names);
    for (auto& [topic, type] : n.subs) {
      if (!typed_readers().count(type)) die("type " + type + " is not built into this peer (fastpeer.BuildDiagnostics builds one)");
      topic = resolve(n, topic, o.raw_names);
    }
    n.clock_reader_topic = resolve(n, n.clock_reader_topic, o.raw_names);
    n.clock_topic = resolve(n, n.clock_topic, o.raw_names);
  }
  return o;
}

// ---------------------------------------------------------------- peer

std::atomic<bool> stopping{false};

void on_signal(int) { stopping = true; }

struct Reader;
struct Writer;

class Peer;

// ParticipantListener reports remote participants and their locators, so
// a test can see every one of them is on loopback.
class ParticipantListener : public fdds::DomainParticipantListener {
 public:
  // set_self names this participant, whose own endpoints are not reported.
  void set_self(const frtps::GuidPrefix_t& p) {
    std::lock_guard<std::mutex> lock(mu_);
    self_ = p;
  }

  void on_participant_discovery(fdds::DomainParticipant*, frtps::ParticipantDiscoveryInfo&& info) override {
    const char* status = nullptr;
    switch (info.status) {
      case frtps::ParticipantDiscoveryInfo::DISCOVERED_PARTICIPANT:
        status = "discovered";
        break;
      case frtps::ParticipantDiscoveryInfo::REMOVED_PARTICIPANT:
        status = "removed";
        break;
      case frtps::ParticipantDiscoveryInfo::DROPPED_PARTICIPANT:
        status = "dropped";
        break;
      default:
        return;
    }
    std::ostringstream s;
    s << "participant status=" << status << " gid=" << gid_hex(gid_of(info.info.m_guid));
    std::string ud(info.info.m_userData.begin(), info.info.m_userData.end());
    if (!ud.empty()) s << " user_data=" << word(ud);
    std::string locs;
    auto add = [&](const frtps::Locator_t& l) {
      if (!locs.empty()) locs += ",";
      locs += frtps::IPLocator::toIPv4string(l) + ":" + std::to_string(l.port);
    };
    for (auto& l : info.info.metatraffic_locators.unicast) add(l);
    for (auto& l : info.info.metatraffic_locators.multicast) add(l);
    for (auto& l : info.info.default_locators.unicast) add(l);
    for (auto& l : info.info.default_locators.multicast) add(l);
    if (!locs.empty()) s << " locators=" << locs;
    emit(s.str());
  }

  // Remote readers and writers: what a graph cache learns from discovery,
  // to compare with what ros_discovery_info says.
  void on_subscriber_discovery(fdds::DomainParticipant*, frtps::ReaderDiscoveryInfo&& info) override {
    if (info.status == frtps::ReaderDiscoveryInfo::CHANGED_QOS_READER) return;
    const auto& d = info.info;
    endpoint("reader", info.status == frtps::ReaderDiscoveryInfo::DISCOVERED_READER, d.guid(), d.topicName().c_str(),
             d.typeName().c_str(), d.m_qos.m_reliability.kind == fdds::RELIABLE_RELIABILITY_QOS,
             d.m_qos.m_durability.kind == fdds::TRANSIENT_LOCAL_DURABILITY_QOS, d.m_qos.m_userData);
  }
  void on_publisher_discovery(fdds::DomainParticipant*, frtps::WriterDiscoveryInfo&& info) override {
    if (info.status == frtps::WriterDiscoveryInfo::CHANGED_QOS_WRITER) return;
    const auto& d = info.info;
    endpoint("writer", info.status == frtps::WriterDiscoveryInfo::DISCOVERED_WRITER, d.guid(), d.topicName().c_str(),
             d.typeName().c_str(), d.m_qos.m_reliability.kind == fdds::RELIABLE_RELIABILITY_QOS,
             d.m_qos.m_durability.kind == fdds::TRANSIENT_LOCAL_DURABILITY_QOS, d.m_qos.m_userData);
  }

 private:
  void endpoint(const char* kind, bool discovered, const frtps::GUID_t& guid, const std::string& topic,
                const std::string& type, bool reliable, bool transient_local, const fdds::UserDataQosPolicy& ud) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (guid.guidPrefix == self_) return;
    }
    std::string user_data(ud.begin(), ud.end());
    emit(std::string("remote kind=") + kind + " status=" + (discovered ? "discovered" : "removed") +
         " gid=" + gid_hex(gid_of(guid)) + " topic=" + word(topic) + " type=" + word(type) +
         " reliability=" + (reliable ? "reliable" : "best_effort") +
         " durability=" + (transient_local ? "transient_local" : "volatile") +
         " user_data=" + (user_data.empty() ? "none" : word(user_data)));
  }

  std::mutex mu_;  // guards self_
  frtps::GuidPrefix_t self_;
};

const char* policy_name(fdds::QosPolicyId_t id) {
  switch (id) {
    case fdds::RELIABILITY_QOS_POLICY_ID:
      return "RELIABILITY";
    case fdds::DURABILITY_QOS_POLICY_ID:
      return "DURABILITY";
    case fdds::DEADLINE_QOS_POLICY_ID:
      return "DEADLINE";
    case fdds::LIVELINESS_QOS_POLICY_ID:
      return "LIVELINESS";
    case fdds::DATAREPRESENTATION_QOS_POLICY_ID:
      return "DATA_REPRESENTATION";
    default:
      return "OTHER";
  }
}

// WriterListener reports matches and QoS incompatibilities of one writer.
class WriterListener : public fdds::DataWriterListener {
 public:
  WriterListener(std::string node, std::string topic) : node_(std::move(node)), topic_(std::move(topic)) {}
  void on_publication_matched(fdds::DataWriter*, const fdds::PublicationMatchedStatus& s) override {
    emit("matched kind=writer node=" + node_ + " topic=" + topic_ + " count=" + std::to_string(s.current_count) +
         " change=" + std::to_string(s.current_count_change));
  }
  void on_offered_incompatible_qos(fdds::DataWriter*, const fdds::OfferedIncompatibleQosStatus& s) override {
    emit("incompatible kind=writer node=" + node_ + " topic=" + topic_ + " policy=" + policy_name(s.last_policy_id) +
         " total=" + std::to_string(s.total_count));
  }

 private:
  std::string node_, topic_;
};

// ReaderListener reports matches, incompatibilities and, through
// on_sample, every sample taken.
class ReaderListener : public fdds::DataReaderListener {
 public:
  using OnSample = std::function<void(const RawData&, const fdds::SampleInfo&)>;
  using TakeAll = std::function<void(fdds::DataReader*)>;
  ReaderListener(std::string node, std::string topic, OnSample f)
      : node_(std::move(node)), topic_(std::move(topic)), f_(std::move(f)) {}
  // A typed reader's listener: take_all takes the samples itself.
  ReaderListener(std::string node, std::string topic, TakeAll take_all)
      : node_(std::move(node)), topic_(std::move(topic)), take_all_(std::move(take_all)) {}
  void on_subscription_matched(fdds::DataReader*, const fdds::SubscriptionMatchedStatus& s) override {
    emit("matched kind=reader node=" + node_ + " topic=" + topic_ + " count=" + std::to_string(s.current_count) +
         " change=" + std::to_string(s.current_count_change));
  }
  void on_requested_incompatible_qos(fdds::DataReader*, const fdds::RequestedIncompatibleQosStatus& s) override {
    emit("incompatible kind=reader node=" + node_ + " topic=" + topic_ + " policy=" + policy_name(s.last_policy_id) +
         " total=" + std::to_string(s.total_count));
  }
  void on_data_available(fdds::DataReader* r) override {
    if (take_all_) {
      take_all_(r);
      return;
    }
    RawData d;
    fdds::SampleInfo info;
    while (r->take_next_sample(&d, &info) == ReturnCode_t::RETCODE_OK) {
      if (info.valid_data) f_(d, info);
    }
  }

 private:
  std::string node_, topic_;
  OnSample f_;
  TakeAll take_all_;
};

class Peer {
 public:
  explicit Peer(const Opts& o) : o_(o) {}

  ~Peer() {
    if (!p_) return;
    // Entities go first, then the participant, as rmw does at shutdown.
    for (auto& w : writers_) pub_->delete_datawriter(w);
    for (auto& r : readers_) r.first->delete_datareader(r.second);
    p_->delete_contained_entities();
    fdds::DomainParticipantFactory::get_instance()->delete_participant(p_);
  }

  void run() {
    state_.resize(o_.nodes.size());
    create_participant();
    graph_.participant = gid_of(p_->guid());  // before any reader exists
    plistener_.set_self(p_->guid().guidPrefix);
    // ros_discovery_info first, as rmw_fastrtps's init_context_impl does.
    Qos dq{Rel::reliable, Dur::transient_local, Hist::keep_last, 1};
    discovery_writer_ = writer("", "ros_discovery_info", kDiscovery, dq);
    dq.hist = Hist::keep_all;
    reader("", "ros_discovery_info", kDiscovery, dq, [this](const RawData& d, const fdds::SampleInfo& info) {
      on_discovery_info(d, info);
    });
    publish_graph();
    for (size_t i = 0; i < o_.nodes.size(); i++) add_node(i);
    emit("ready participant=" + gid_hex(graph_.participant) + " domain=" + std::to_string(o_.domain) +
         " pid=" + std::to_string(getpid()));
    loop();
    emit("stopped participant=" + gid_hex(graph_.participant));
  }

 private:
  struct NodeState {
    int64_t clock_ns = 0;  // last /clock received (rclcpp's sim time; 0 before the first)
    bool have_clock = false;
    fdds::DataWriter* clock_w = nullptr;
    std::string clock_dds_topic;
    int64_t clock_next_ns = 0, clock_sent = 0;
    std::chrono::steady_clock::time_point clock_due;
    fdds::DataWriter* imu_w = nullptr;
    std::string imu_dds_topic;
    std::chrono::steady_clock::time_point imu_due;
    uint64_t imu_sent = 0;
    int64_t first_clock_ns = 0;  // the first /clock received, for freerun stamps
    std::chrono::steady_clock::time_point first_clock_at;
    fdds::DataWriter* tf_w = nullptr;
    fdds::DataWriter* tf_static_w = nullptr;
    bool tf_static_sent = false;
    std::chrono::steady_clock::time_point tf_due;
  };

  void create_participant() {
    auto factory = fdds::DomainParticipantFactory::get_instance();
    fdds::DomainParticipantQos q = factory->get_default_participant_qos();
    q.name("/");
    std::string enclave = "enclave=/;";
    q.user_data().resize(enclave.size());
    q.user_data().setValue(std::vector<uint8_t>(enclave.begin(), enclave.end()));

    // Loopback only. rmw_fastrtps's LOCALHOST range does much the same (it
    // keeps a SHM transport, which the peer does not).
    q.transport().use_builtin_transports = false;
    q.transport().user_transports.clear();
    auto udp = std::make_shared<eprosima::fastdds::rtps::UDPv4TransportDescriptor>();
    udp->interfaceWhiteList.emplace_back("127.0.0.1");
    udp->maxInitialPeersRange = kPeerIndices;
    q.transport().user_transports.push_back(udp);

    auto& b = q.wire_protocol().builtin;
    b.metatrafficMulticastLocatorList.clear();
    b.metatrafficUnicastLocatorList.clear();
    b.initialPeersList.clear();
    frtps::Locator_t meta;  // port 0: Fast DDS picks the participant's port
    frtps::IPLocator::setIPv4(meta, "127.0.0.1");
    b.metatrafficUnicastLocatorList.push_back(meta);
    q.wire_protocol().default_multicast_locator_list.clear();
    q.wire_protocol().default_unicast_locator_list.clear();
    frtps::Locator_t user;
    frtps::IPLocator::setIPv4(user, "127.0.0.1");
    q.wire_protocol().default_unicast_locator_list.push_back(user);
    // Initial peers: the SPDP unicast port of participant index i in the
    // domain, 7400 + 250*domain + 10 + 2*i (RTPS 2.2 9.6.1.1), as
    // Cyclone's ParticipantIndex=auto participants listen on.
    const auto& port = q.wire_protocol().port;
    for (uint32_t i = 0; i < kPeerIndices; i++) {
      frtps::Locator_t peer;
      frtps::IPLocator::setIPv4(peer, "127.0.0.1");
      peer.port = port.portBase + port.domainIDGain * o_.domain + port.offsetd1 + port.participantIDGain * i;
      b.initialPeersList.push_back(peer);
    }
    b.readerHistoryMemoryPolicy = frtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
    b.writerHistoryMemoryPolicy = frtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;

    p_ = factory->create_participant(o_.domain, q, &plistener_, fdds::StatusMask::none());
    if (!p_) die("cannot create the participant in domain " + std::to_string(o_.domain));
    report_config(p_->get_qos());
    if (o_.xtypes) register_xtypes_clock(p_);
    pub_ = p_->create_publisher(p_->get_default_publisher_qos());
    sub_ = p_->create_subscriber(p_->get_default_subscriber_qos());
    if (!pub_ || !sub_) die("cannot create publisher or subscriber");
  }

  // report_config prints the participant's transport configuration as
  // Fast DDS holds it, for the tests' loopback check.
  void report_config(const fdds::DomainParticipantQos& q) {
    auto loc = [](const frtps::LocatorList_t& l) {
      std::string s;
      for (auto& x : l) {
        if (!s.empty()) s += ",";
        s += frtps::IPLocator::toIPv4string(x) + ":" + std::to_string(x.port);
      }
      return s.empty() ? std::string("none") : s;
    };
    std::ostringstream s;
    s << "config domain=" << o_.domain << " builtin_transports=" << (q.transport().use_builtin_transports ? "true" : "false")
      << " transports=";
    std::string ts, wl;
    for (auto& t : q.transport().user_transports) {
      auto udp = std::dynamic_pointer_cast<eprosima::fastdds::rtps::UDPv4TransportDescriptor>(t);
      if (!ts.empty()) ts += ",";
      ts += udp ? "UDPv4" : "other";
      if (udp) {
        for (auto& w : udp->interfaceWhiteList) wl += (wl.empty() ? "" : ",") + w;
      }
    }
    auto& b = q.wire_protocol().builtin;
    s << (ts.empty() ? "none" : ts) << " whitelist=" << (wl.empty() ? "none" : wl)
      << " metatraffic_unicast=" << loc(b.metatrafficUnicastLocatorList)
      << " metatraffic_multicast=" << loc(b.metatrafficMulticastLocatorList)
      << " default_unicast=" << loc(q.wire_protocol().default_unicast_locator_list)
      << " default_multicast=" << loc(q.wire_protocol().default_multicast_locator_list)
      << " initial_peers=" << loc(b.initialPeersList)
      << " xtypes=" << (o_.xtypes ? "true" : "false");
    emit(s.str());
  }

  fdds::Topic* topic(const std::string& name, const RosType& t) {
    auto it = topics_.find(name);
    if (it != topics_.end()) return it->second;
    if (!types_.count(t.dds)) {
      fdds::TypeSupport ts(new RawType(t.dds, o_.xtypes));
      if (ts.register_type(p_) != ReturnCode_t::RETCODE_OK) die(std::string("cannot register type ") + t.dds);
      types_[t.dds] = ts;
    }
    fdds::Topic* tp = p_->create_topic(name, t.dds, p_->get_default_topic_qos());
    if (!tp) die("cannot create topic " + name);
    topics_[name] = tp;
    return tp;
  }

  void describe(const char* kind, const std::string& node, const std::string& topic, const RosType& t, const Qos& q,
                const Gid& g) {
    emit(std::string("endpoint kind=") + kind + " node=" + (node.empty() ? "-" : word(node)) + " topic=" + word(topic) +
         " type=" + t.dds + " gid=" + gid_hex(g) + " reliability=" + name(q.rel) + " durability=" + name(q.dur) +
         " history=" + name(q.hist) + " depth=" + std::to_string(q.depth) +
         (q.lifespan_s > 0 ? " lifespan_s=" + std::to_string(q.lifespan_s) : std::string()) + " typehash=" + t.hash);
  }

  fdds::DataWriter* writer(const std::string& node, const std::string& topic_name, const RosType& t, const Qos& q) {
    fdds::DataWriterQos wq = pub_->get_default_datawriter_qos();
    fill(q, t, wq);
    wq.publish_mode().kind = eprosima::fastrtps::SYNCHRONOUS_PUBLISH_MODE;  // Jazzy's default
    wq.data_sharing().off();
    wq.representation().clear();
    wq.representation().m_value.push_back(fdds::XCDR_DATA_REPRESENTATION);
    auto l = std::make_unique<WriterListener>(node.empty() ? "-" : word(node), word(topic_name));
    fdds::StatusMask mask = fdds::StatusMask::publication_matched();
    mask << fdds::StatusMask::offered_incompatible_qos();
    fdds::DataWriter* w = pub_->create_datawriter(topic(topic_name, t), wq, l.get(), mask);
    if (!w) die("cannot create a writer on " + topic_name);
    wlisteners_.push_back(std::move(l));
    writers_.push_back(w);
    describe("writer", node, topic_name, t, q, gid_of(w->guid()));
    return w;
  }

  // subscriber returns the participant's subscriber, or for a partition
  // one in that partition (created once): rmw_fastrtps applies a
  // partition from a topic's XML profile the same way.
  fdds::Subscriber* subscriber(const std::string& partition) {
    if (partition.empty()) return sub_;
    auto it = partitioned_.find(partition);
    if (it != partitioned_.end()) return it->second;
    fdds::SubscriberQos q = p_->get_default_subscriber_qos();
    q.partition().push_back(partition.c_str());
    fdds::Subscriber* s = p_->create_subscriber(q);
    if (!s) die("cannot create a subscriber in partition " + partition);
    partitioned_[partition] = s;
    return s;
  }

  fdds::DataReader* reader(const std::string& node, const std::string& topic_name, const RosType& t, const Qos& q,
                          ReaderListener::OnSample f, const std::string& partition = "") {
    fdds::Subscriber* sub = subscriber(partition);
    fdds::DataReaderQos rq = sub->get_default_datareader_qos();
    fill(q, t, rq);
    rq.data_sharing().off();
    rq.type_consistency().representation.clear();
    rq.type_consistency().representation.m_value.push_back(fdds::XCDR_DATA_REPRESENTATION);
    auto l = std::make_unique<ReaderListener>(node.empty() ? "-" : word(node), word(topic_name), std::move(f));
    fdds::StatusMask mask = fdds::StatusMask::subscription_matched();
    mask << fdds::StatusMask::requested_incompatible_qos() << fdds::StatusMask::data_available();
    fdds::DataReader* r = sub->create_datareader(topic(topic_name, t), rq, l.get(), mask);
    if (!r) die("cannot create a reader on " + topic_name);
    rlisteners_.push_back(std::move(l));
    readers_.push_back({sub, r});
    describe("reader", node, topic_name, t, q, gid_of(r->guid()));
    return r;
  }

  // typed_reader creates a reader of a TypedReader's type, registered with
  // its generated TopicDataType, with XTypes information off as
  // rmw_fastrtps's TypeSupport turns it off.
  fdds::DataReader* typed_reader(const std::string& node, const std::string& topic_name, const TypedReader& tr,
                                 const Qos& q) {
    const RosType& t = tr.type;
    if (!types_.count(t.dds)) {
      fdds::TypeSupport ts = tr.support();
      ts->auto_fill_type_object(false);
      ts->auto_fill_type_information(false);
      if (ts.register_type(p_, t.dds) != ReturnCode_t::RETCODE_OK) die(std::string("cannot register type ") + t.dds);
      types_[t.dds] = ts;
    }
    fdds::Topic* tp = topics_.count(topic_name) ? topics_[topic_name]
                                                : p_->create_topic(topic_name, t.dds, p_->get_default_topic_qos());
    if (!tp) die("cannot create topic " + topic_name);
    topics_[topic_name] = tp;
    fdds::DataReaderQos rq = sub_->get_default_datareader_qos();
    fill(q, t, rq);
    rq.data_sharing().off();
    rq.type_consistency().representation.clear();
    rq.type_consistency().representation.m_value.push_back(fdds::XCDR_DATA_REPRESENTATION);
    std::string who = node.empty() ? "-" : word(node), topic_word = word(topic_name);
    auto take = tr.take;
    auto l = std::make_unique<ReaderListener>(who, topic_word, ReaderListener::TakeAll([take, who, topic_word](fdds::DataReader* r) {
      take(r, who, topic_word);
    }));
    fdds::StatusMask mask = fdds::StatusMask::subscription_matched();
    mask << fdds::StatusMask::requested_incompatible_qos() << fdds::StatusMask::data_available();
    fdds::DataReader* r = sub_->create_datareader(tp, rq, l.get(), mask);
    if (!r) die("cannot create a reader on " + topic_name);
    rlisteners_.push_back(std::move(l));
    readers_.push_back({sub_, r});
    describe("reader", node, topic_name, t, q, gid_of(r->guid()));
    return r;
  }

  void publish_graph() {
    RawData d{graph_.message()};
    if (!discovery_writer_->write(&d)) die("cannot publish ros_discovery_info");
  }

  // add_node creates node i's endpoints and announces each in
  // ros_discovery_info, as rmw_dds_common's Context does.
  void add_node(size_t i) {
    const NodeOpts& n = o_.nodes[i];
    {
      std::lock_guard<std::mutex> lock(graph_.mu);
      graph_.nodes.push_back(NodeInfo{n.ns, n.name, {}, {}});
    }
    std::string fq = graph_.nodes[i].fq();
    emit("node name=" + word(fq));
    publish_graph();
    auto& st = state_[i];
    auto add = [&](bool is_reader, const Gid& g) {
      {
        std::lock_guard<std::mutex> lock(graph_.mu);
        (is_reader ? graph_.nodes[i].readers : graph_.nodes[i].writers).push_back(g);
      }
      publish_graph();
    };
    if (n.rclcpp) add_rclcpp_endpoints(i, fq, add);
    if (n.sim_time) {
      std::string clock_dds = "rt" + n.clock_reader_topic;
      std::string who = word(fq);
      auto r = reader(fq, clock_dds, kClock, n.clock_reader, [this, i, who, clock_dds](const RawData& d, const fdds::SampleInfo& info) {
        try {
          CdrReader c(d.bytes);
          int32_t sec = c.i32();
          uint32_t nsec = c.u32();
          {
            std::lock_guard<std::mutex> lock(state_mu_);
            state_[i].clock_ns = static_cast<int64_t>(sec) * 1000000000LL + nsec;
            if (!state_[i].have_clock) {
              state_[i].first_clock_ns = state_[i].clock_ns;
              state_[i].first_clock_at = std::chrono::steady_clock::now();
            }
            state_[i].have_clock = true;
          }
          emit("clock node=" + who + " topic=" + word(clock_dds) + " sec=" + std::to_string(sec) +
               " nanosec=" + std::to_string(nsec) + " publisher=" + gid_hex(gid_of(info.sample_identity.writer_guid())));
        } catch (const std::exception& e) {
          emit("malformed node=" + who + " topic=" + word(clock_dds) + " error=" + word(e.what()));
        }
      }, n.clock_reader_partition);
      add(true, gid_of(r->guid()));
    }
    if (n.pub_clock) {
      st.clock_dds_topic = "rt" + n.clock_topic;
      st.clock_w = writer(fq, st.clock_dds_topic, kClock, n.clock_writer);
      st.clock_next_ns = n.clock_start;
      add(false, gid_of(st.clock_w->guid()));
    }
    for (auto& [topic, type] : n.subs) {
      Qos q{Rel::reliable, Dur::volatile_, Hist::keep_last, 10};
      auto r = typed_reader(fq, "rt" + topic, typed_readers().at(type), q);
      add(true, gid_of(r->guid()));
    }
    if (!n.tf.empty()) {
      Qos q{Rel::reliable, Dur::volatile_, Hist::keep_last, 100};
      st.tf_w = writer(fq, "rt" + n.tf_topic, kTF, q);
      add(false, gid_of(st.tf_w->guid()));
    }
    if (!n.tf_static.empty()) {
      Qos q{Rel::reliable, Dur::transient_local, Hist::keep_last, 1};
      st.tf_static_w = writer(fq, "rt" + n.tf_topic + "_static", kTF, q);
      add(false, gid_of(st.tf_static_w->guid()));
    }
    if (!n.imu_topic.empty()) {
      st.imu_dds_topic = "rt" + n.imu_fq;
      st.imu_w = writer(fq, st.imu_dds_topic, kImu, n.imu_writer);
      add(false, gid_of(st.imu_w->guid()));
    }
  }

  // add_rclcpp_endpoints creates, in rclcpp's order, what every rclcpp
  // node has besides its own endpoints (parameter services excepted): rcl's
  // /rosout writer (rcl_qos_profile_rosout_default: reliable, transient
  // local, keep last 1000, lifespan 10 s), NodeParameters' /parameter_events
  // writer and TimeSource's /parameter_events reader
  // (rmw_qos_profile_parameter_events: reliable, volatile, keep last 1000).
  // It then publishes what such a node publishes at start: the
  // ParameterEvent declaring use_sim_time, stamped by the node clock before
  // sim time is enabled (so wall time), and one log line on /rosout, stamped
  // by rcutils logging with the system clock whatever use_sim_time says.
  template <typename Add>
  void add_rclcpp_endpoints(size_t i, const std::string& fq, Add add) {
    const NodeOpts& n = o_.nodes[i];
    Qos rosout{Rel::reliable, Dur::transient_local, Hist::keep_last, 1000, 10};
    fdds::DataWriter* log_w = writer(fq, "rt/rosout", kLog, rosout);
    add(false, gid_of(log_w->guid()));
    Qos events{Rel::reliable, Dur::volatile_, Hist::keep_last, 1000};
    fdds::DataWriter* ev_w = writer(fq, "rt/parameter_events", kParameterEvent, events);
    add(false, gid_of(ev_w->guid()));
    auto ev_r = reader(fq, "rt/parameter_events", kParameterEvent, events, [](const RawData&, const fdds::SampleInfo&) {});
    add(true, gid_of(ev_r->guid()));

    int64_t stamp = wall_ns();
    RawData evd{encode_parameter_event(stamp, fq, "use_sim_time", n.sim_time)};
    ev_w->write(&evd);
    emit_published("rt/parameter_events", word(fq), stamp, "wall");

    stamp = wall_ns();
    std::string logger = n.ns == "/" ? "" : n.ns.substr(1) + "/";
    for (auto& c : logger) {
      if (c == '/') c = '.';
    }
    logger += n.name;
    RawData logd{encode_log(stamp, 20 /* INFO */, logger, "fastpeer node started", "peer.cpp",
                            "add_rclcpp_endpoints", __LINE__)};
    log_w->write(&logd);
    emit_published("rt/rosout", word(fq), stamp, "wall");
  }

  void emit_published(const std::string& topic, const std::string& node, int64_t stamp, const char* base) {
    int32_t sec;
    uint32_t nsec;
    split_time(stamp, &sec, &nsec);
    emit("published topic=" + topic + " node=" + node + " sec=" + std::to_string(sec) +
         " nanosec=" + std::to_string(nsec) + " base=" + base);
  }

  // on_discovery_info reports the nodes of other participants, decoded
  // from their ParticipantEntitiesInfo.
  void on_discovery_info(const RawData& d, const fdds::SampleInfo&) {
    try {
      CdrReader c(d.bytes);
      Gid pg;
      c.bytes(pg.b, 16);
      if (std::memcmp(pg.b, graph_.participant.b, 16) == 0) return;  // ignore_local_publications
      uint32_t n = c.u32();
      if (n > c.remaining()) throw std::runtime_error("node count beyond the message");
      std::ostringstream s;
      s << "graph participant=" << gid_hex(pg) << " nodes=" << n;
      emit(s.str());
      for (uint32_t k = 0; k < n; k++) {
        std::string ns = c.str(), name = c.str();
        std::ostringstream ns_line;
        ns_line << "graph_node participant=" << gid_hex(pg) << " namespace=" << word(ns) << " name=" << word(name);
        for (const char* kind : {"readers", "writers"}) {
          uint32_t m = c.u32();
          if (m > c.remaining() / 16) throw std::runtime_error("GID count beyond the message");
          std::string gids;
          for (uint32_t j = 0; j < m; j++) {
            Gid g;
            c.bytes(g.b, 16);
            gids += (j ? "," : "") + gid_hex(g);
          }
          ns_line << " " << kind << "=" << (gids.empty() ? "none" : gids);
        }
        emit(ns_line.str());
      }
    } catch (const std::exception& e) {
      emit("malformed topic=ros_discovery_info error=" + word(e.what()));
    }
  }

  // publish_clock publishes node i's next /clock message: its value, or
  // with --clock-malformed 8 bytes that do not decode as a Clock (the
  // encapsulation header and seconds only). --clock-jump-every jumps the
  // value every that many messages (a looped recording jumps back at each
  // loop); --clock-stall-at stops it from then on.
  void publish_clock(size_t i) {
    auto& st = state_[i];
    const NodeOpts& n = o_.nodes[i];
    if (n.clock_jump_every > 0 && st.clock_sent > 0 && st.clock_sent % n.clock_jump_every == 0) st.clock_next_ns += n.clock_jump;
    RawData d{encode_clock(st.clock_next_ns)};
    if (n.clock_malformed) d.bytes.resize(8);
    st.clock_w->write(&d);
    int32_t sec;
    uint32_t nsec;
    split_time(st.clock_next_ns, &sec, &nsec);
    emit("published topic=" + word(st.clock_dds_topic) + " node=" + word(graph_.nodes[i].fq()) +
         " sec=" + std::to_string(sec) + " nanosec=" + std::to_string(nsec) +
         (n.clock_malformed ? " malformed=true" : ""));
    if (n.clock_stall_at < 0 || st.clock_sent + 1 < n.clock_stall_at) st.clock_next_ns += n.clock_step;
    st.clock_sent++;
  }

  void publish_imu(size_t i) {
    auto& st = state_[i];
    const NodeOpts& n = o_.nodes[i];
    int64_t stamp = 0;
    const char* base = "zero";
    if (n.stamp == Stamp::wall) {
      stamp = wall_ns() + n.stamp_offset;
      base = "wall";
    } else if (n.stamp == Stamp::sim) {
      std::lock_guard<std::mutex> lock(state_mu_);
      // rclcpp: a sim-time node reads 0 until its first /clock.
      stamp = st.have_clock ? st.clock_ns + n.stamp_offset : 0;
      base = "sim";
    }
    RawData d{encode_imu(stamp, n.frame_id)};
    st.imu_w->write(&d);
    emit_published(word(st.imu_dds_topic), word(graph_.nodes[i].fq()), stamp, base);
    st.imu_sent++;
  }

  // tf_stamp returns what node i stamps its transforms with now, or false
  // when it has no time yet (a sim-time node before its first /clock
  // waits, as a careful broadcaster does).
  bool tf_stamp(size_t i, int64_t* stamp) {
    const NodeOpts& n = o_.nodes[i];
    std::lock_guard<std::mutex> lock(state_mu_);
    auto& st = state_[i];
    switch (n.tf_stamp) {
      case Stamp::wall:
        *stamp = wall_ns() + n.tf_stamp_offset;
        return true;
      case Stamp::zero:
        *stamp = 0;
        return true;
      case Stamp::sim:
        *stamp = st.clock_ns + n.tf_stamp_offset;
        return st.have_clock;
      case Stamp::freerun:
        *stamp = st.first_clock_ns + n.tf_stamp_offset +
                 std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - st.first_clock_at)
                     .count();
        return st.have_clock;
    }
    return false;
  }

  // publish_tf sends node i's transforms, all with one stamp, on /tf, or
  // its static ones, once, on /tf_static.
  void publish_tf(size_t i, bool is_static) {
    const NodeOpts& n = o_.nodes[i];
    auto& st = state_[i];
    int64_t stamp;
    if (!tf_stamp(i, &stamp)) return;
    std::vector<Transform> ts;
    for (auto& [parent, child] : is_static ? n.tf_static : n.tf) ts.push_back({stamp, parent, child});
    RawData d{encode_tf(ts)};
    (is_static ? st.tf_static_w : st.tf_w)->write(&d);
    if (is_static) st.tf_static_sent = true;
    std::string topic = "rt" + n.tf_topic + (is_static ? "_static" : "");
    int32_t sec;
    uint32_t nsec;
    split_time(stamp, &sec, &nsec);
    emit("published topic=" + word(topic) + " node=" + word(graph_.nodes[i].fq()) + " sec=" + std::to_string(sec) +
         " nanosec=" + std::to_string(nsec) + " base=" + name(n.tf_stamp) + " transforms=" + std::to_string(ts.size()));
  }

  void loop() {
    using clock = std::chrono::steady_clock;
    auto start = clock::now();
    for (size_t i = 0; i < o_.nodes.size(); i++) {
      state_[i].clock_due = start;
      state_[i].imu_due = start;
      state_[i].tf_due = start;
    }
    while (!stopping) {
      auto now = clock::now();
      if (o_.duration > 0 && now - start >= std::chrono::nanoseconds(o_.duration)) break;
      auto next = now + std::chrono::milliseconds(50);
      for (size_t i = 0; i < o_.nodes.size(); i++) {
        auto& st = state_[i];
        const NodeOpts& n = o_.nodes[i];
        if (st.clock_w && (n.clock_count == 0 || st.clock_sent < n.clock_count)) {
          if (now >= st.clock_due) {
            publish_clock(i);
            st.clock_due += std::chrono::nanoseconds(static_cast<int64_t>(1e9 / n.clock_rate));
            if (st.clock_due < now) st.clock_due = now;  // never burst after a stall
          }
          next = std::min(next, st.clock_due);
        }
        if (st.tf_static_w && !st.tf_static_sent) {
          publish_tf(i, true);
          if (!st.tf_static_sent) next = std::min(next, now + std::chrono::milliseconds(10));
        }
        if (st.tf_w) {
          if (now >= st.tf_due) {
            publish_tf(i, false);
            st.tf_due += std::chrono::nanoseconds(static_cast<int64_t>(1e9 / n.tf_rate));
            if (st.tf_due < now) st.tf_due = now;
          }
          next = std::min(next, st.tf_due);
        }
        if (st.imu_w) {
          if (now >= st.imu_due) {
            publish_imu(i);
            st.imu_due += std::chrono::nanoseconds(static_cast<int64_t>(1e9 / n.imu_rate));
            if (st.imu_due < now) st.imu_due = now;
          }
          next = std::min(next, st.imu_due);
        }
      }
      std::this_thread::sleep_until(next);
    }
  }

  static constexpr uint32_t kPeerIndices = 32;  // Cyclone's MaxAutoParticipantIndex in config/

  const Opts& o_;
  fdds::DomainParticipant* p_ = nullptr;
  fdds::Publisher* pub_ = nullptr;
  fdds::Subscriber* sub_ = nullptr;
  ParticipantListener plistener_;
  std::map<std::string, fdds::TypeSupport> types_;
  std::map<std::string, fdds::Topic*> topics_;
  std::vector<fdds::DataWriter*> writers_;
  std::vector<std::pair<fdds::Subscriber*, fdds::DataReader*>> readers_;
  std::map<std::string, fdds::Subscriber*> partitioned_;
  std::vector<std::unique_ptr<WriterListener>> wlisteners_;
  std::vector<std::unique_ptr<ReaderListener>> rlisteners_;
  fdds::DataWriter* discovery_writer_ = nullptr;
  Graph graph_;
  std::mutex state_mu_;  // guards clock_ns and have_clock of state_
  std::vector<NodeState> state_;  // one per node, sized before any callback can run
};

}  // namespace

#ifndef FASTPEER_NO_MAIN  // cpp/check/check.cpp includes this file
int main(int argc, char** argv) {
  // Loopback only, whatever the environment says: no XML profile, no
  // discovery server from the environment.
  for (const char* v : {"FASTRTPS_DEFAULT_PROFILES_FILE", "FASTDDS_DEFAULT_PROFILES_FILE", "ROS_DISCOVERY_SERVER",
                        "SKIP_DEFAULT_XML"}) {
    unsetenv(v);
  }
  setenv("SKIP_DEFAULT_XML", "1", 1);
  // Only stdin, stdout and stderr: descriptors a parent leaked (Cyclone
  // DDS opens its sockets without close-on-exec) are not the peer's.
  close_range(3, ~0U, 0);
  // A peer never outlives the test that started it.
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGINT, on_signal);
  Opts o = parse(argc, argv);
  Peer peer(o);
  peer.run();
  return 0;
}
#endif  // FASTPEER_NO_MAIN
