// diagnostics: the Fast DDS peer with diagnostic_msgs/msg/DiagnosticArray
// readable by --sub, through the code fastddsgen -typeros2 generates from
// the type's IDL, itself made from the .msg files by rosidl_adapter (the
// converter rosidl uses). Nothing here decodes CDR by hand: what the peer
// reports is what Fast DDS's generated code read.
//
// Built by package internal/fastpeer (BuildDiagnostics): peer.cpp, this
// file and the generated sources. Each message it takes is printed as
//
//   diagnostics node=<n> topic=<t> seq=<k> sec=<s> nanosec=<ns> frame_id=<pct> statuses=<m> publisher=<gid>
//   diagnostic_status seq=<k> index=<i> level=<l> name=<pct> message=<pct> hardware_id=<pct> values=<v>
//   diagnostic_value seq=<k> status=<i> key=<pct> value=<pct>
//
// with strings percent-encoded (pct in peer.cpp).

#include "peer.cpp"

#include "diagnostic_msgs/msg/DiagnosticArrayPubSubTypes.h"

namespace {

const RosType kDiagnosticArray{"diagnostic_msgs/msg/DiagnosticArray", "diagnostic_msgs::msg::dds_::DiagnosticArray_",
                               "RIHS01_5a8a36efb05fb25070fa0fb3810290c0e6cd4862b54a8fb975a1ee8dc55a333e"};

std::atomic<int> diagnostics_seq{0};

void take_diagnostics(fdds::DataReader* r, const std::string& node, const std::string& topic) {
  diagnostic_msgs::msg::DiagnosticArray m;
  fdds::SampleInfo info;
  while (r->take_next_sample(&m, &info) == ReturnCode_t::RETCODE_OK) {
    if (!info.valid_data) continue;
    int seq = ++diagnostics_seq;
    std::string k = std::to_string(seq);
    emit("diagnostics node=" + node + " topic=" + topic + " seq=" + k +
         " sec=" + std::to_string(m.header().stamp().sec()) + " nanosec=" + std::to_string(m.header().stamp().nanosec()) +
         " frame_id=" + pct(m.header().frame_id()) + " statuses=" + std::to_string(m.status().size()) +
         " publisher=" + gid_hex(gid_of(info.sample_identity.writer_guid())));
    for (size_t i = 0; i < m.status().size(); i++) {
      const auto& st = m.status()[i];
      emit("diagnostic_status seq=" + k + " index=" + std::to_string(i) + " level=" + std::to_string(st.level()) +
           " name=" + pct(st.name()) + " message=" + pct(st.message()) + " hardware_id=" + pct(st.hardware_id()) +
           " values=" + std::to_string(st.values().size()));
      for (const auto& kv : st.values()) {
        emit("diagnostic_value seq=" + k + " status=" + std::to_string(i) + " key=" + pct(kv.key()) +
             " value=" + pct(kv.value()));
      }
    }
  }
}

[[maybe_unused]] const bool registered = register_typed_reader(TypedReader{
    kDiagnosticArray, [] { return fdds::TypeSupport(new diagnostic_msgs::msg::DiagnosticArrayPubSubType()); },
    take_diagnostics});

}  // namespace
