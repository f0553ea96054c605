// check: compares the peer's hand-written serializations (peer.cpp's
// encode_* functions) with what Fast DDS's own code generator produces
// for the same ROS types (ros_types.idl through fastddsgen), message by
// message. Prints "ok <type> <bytes>" or "mismatch <type> peer=<hex>
// fastddsgen=<hex>"; exits 1 on any mismatch. Run by package
// internal/fastpeer's TestSerializationMatchesFastddsgen.

#define FASTPEER_NO_MAIN
#include "peer.cpp"

#include "ros_typesPubSubTypes.h"

namespace {

int failures = 0;

// reference serializes msg with its fastddsgen PubSubType.
template <typename PubSub, typename Msg>
std::vector<uint8_t> reference(Msg& msg) {
  PubSub t;
  uint32_t size = t.getSerializedSizeProvider(&msg)();
  frtps::SerializedPayload_t payload(size + 8);
  if (!t.serialize(&msg, &payload)) {
    std::fprintf(stderr, "fastddsgen serialize failed\n");
    std::exit(2);
  }
  return std::vector<uint8_t>(payload.data, payload.data + payload.length);
}

// compare reports whether the peer's bytes are fastddsgen's, allowing the
// peer's trailing padding to a multiple of 4 (zeros the RTPS layer would
// add to the submessage anyway).
void compare(const char* type, std::vector<uint8_t> peer, const std::vector<uint8_t>& ref) {
  bool ok = peer.size() >= ref.size() && peer.size() - ref.size() < 4 && peer.size() % 4 == 0 &&
            std::equal(ref.begin(), ref.end(), peer.begin());
  for (size_t i = ref.size(); ok && i < peer.size(); i++) ok = peer[i] == 0;
  if (ok) {
    std::printf("ok %s %zu\n", type, ref.size());
  } else {
    std::printf("mismatch %s peer=%s fastddsgen=%s\n", type, hex(peer.data(), peer.size()).c_str(),
                hex(ref.data(), ref.size()).c_str());
    failures++;
  }
}

void set_time(builtin_interfaces::msg::dds_::Time_& t, int64_t ns) {
  int32_t sec;
  uint32_t nsec;
  split_time(ns, &sec, &nsec);
  t.sec(sec);
  t.nanosec(nsec);
}

}  // namespace

int main() {
  // Times at the edges: zero, negative (sec < 0 with nanosec in range),
  // a Unix-epoch time, and the largest int32 second.
  const int64_t times[] = {0, -1500000000LL, 1700000000123456789LL, 2147483647999999999LL};
  for (int64_t ns : times) {
    rosgraph_msgs::msg::dds_::Clock_ c;
    set_time(c.clock(), ns);
    compare("rosgraph_msgs/msg/Clock", encode_clock(ns), reference<rosgraph_msgs::msg::dds_::Clock_PubSubType>(c));
  }

  // Every frame_id length modulo 8 shifts the doubles' alignment.
  for (std::string frame : {"", "a", "ab", "abc", "imu_link", "base_link_imu", "x234567"}) {
    sensor_msgs::msg::dds_::Imu_ m;
    set_time(m.header().stamp(), 1700000000123456789LL);
    m.header().frame_id(frame);
    m.orientation().w(1.0);
    m.angular_velocity().y(0.01);
    m.angular_velocity().z(0.02);
    m.linear_acceleration().z(9.81);
    compare("sensor_msgs/msg/Imu", encode_imu(1700000000123456789LL, frame),
            reference<sensor_msgs::msg::dds_::Imu_PubSubType>(m));
  }

  // Zero to three transforms, frame names of every length modulo 8 (the
  // doubles' alignment follows them).
  {
    std::vector<Transform> all = {{1700000000123456789LL, "odom", "base_link"}, {-1500000000LL, "a", "bc"},
                                  {0, "", "x234567"}};
    for (size_t n = 0; n <= all.size(); n++) {
      std::vector<Transform> some(all.begin(), all.begin() + n);
      tf2_msgs::msg::dds_::TFMessage_ m;
      for (auto& t : some) {
        geometry_msgs::msg::dds_::TransformStamped_ ts;
        set_time(ts.header().stamp(), t.stamp);
        ts.header().frame_id(t.parent);
        ts.child_frame_id(t.child);
        ts.transform().translation().x(0.1);
        ts.transform().rotation().w(1.0);
        m.transforms().push_back(ts);
      }
      compare("tf2_msgs/msg/TFMessage", encode_tf(some), reference<tf2_msgs::msg::dds_::TFMessage_PubSubType>(m));
    }
  }

  {
    Gid participant{}, r1{}, w1{}, w2{};
    for (int k = 0; k < 16; k++) {
      participant.b[k] = static_cast<uint8_t>(k);
      r1.b[k] = static_cast<uint8_t>(0x10 + k);
      w1.b[k] = static_cast<uint8_t>(0x20 + k);
      w2.b[k] = static_cast<uint8_t>(0x30 + k);
    }
    std::vector<NodeInfo> nodes = {{"/", "a", {}, {}}, {"/robot", "imu_driver", {r1}, {w1, w2}}, {"/x", "yz", {r1}, {}}};
    for (size_t n = 0; n <= nodes.size(); n++) {
      std::vector<NodeInfo> some(nodes.begin(), nodes.begin() + n);
      rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_ m;
      std::copy(participant.b, participant.b + 16, m.gid().data().begin());
      for (auto& node : some) {
        rmw_dds_common::msg::dds_::NodeEntitiesInfo_ info;
        info.node_namespace(node.ns);
        info.node_name(node.name);
        for (auto& g : node.readers) {
          rmw_dds_common::msg::dds_::Gid_ gid;
          std::copy(g.b, g.b + 16, gid.data().begin());
          info.reader_gid_seq().push_back(gid);
        }
        for (auto& g : node.writers) {
          rmw_dds_common::msg::dds_::Gid_ gid;
          std::copy(g.b, g.b + 16, gid.data().begin());
          info.writer_gid_seq().push_back(gid);
        }
        m.node_entities_info_seq().push_back(info);
      }
      compare("rmw_dds_common/msg/ParticipantEntitiesInfo", encode_entities(participant, some),
              reference<rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_PubSubType>(m));
    }
  }

  for (std::string node : {"/a", "/robot/imu_driver", "/abc"}) {
    for (bool value : {false, true}) {
      rcl_interfaces::msg::dds_::ParameterEvent_ m;
      set_time(m.stamp(), 1700000000123456789LL);
      m.node(node);
      rcl_interfaces::msg::dds_::Parameter_ p;
      p.name("use_sim_time");
      p.value().type(1);
      p.value().bool_value(value);
      m.new_parameters().push_back(p);
      compare("rcl_interfaces/msg/ParameterEvent",
              encode_parameter_event(1700000000123456789LL, node, "use_sim_time", value),
              reference<rcl_interfaces::msg::dds_::ParameterEvent_PubSubType>(m));
    }
  }

  for (std::string name : {"a", "robot.imu_driver", "abcd"}) {
    rcl_interfaces::msg::dds_::Log_ m;
    set_time(m.stamp(), 1700000000123456789LL);
    m.level(20);
    m.name(name);
    m.msg("fastpeer node started");
    m.file("peer.cpp");
    m.function("f");
    m.line(1234);
    compare("rcl_interfaces/msg/Log", encode_log(1700000000123456789LL, 20, name, "fastpeer node started", "peer.cpp", "f", 1234),
            reference<rcl_interfaces::msg::dds_::Log_PubSubType>(m));
  }
  return failures ? 1 : 0;
}
