// gen writes a rosbag2 metadata.yaml as rosbag2's writer of one metadata
// version does, with the values of another metadata.yaml (a real one that
// rosbag2 wrote). It transcribes the encode side of rosbag2_storage's
// YAML conversions (metadata_io.cpp up to Galactic, yaml.hpp and qos.cpp
// from Humble on) and emits with yaml-cpp, the emitter rosbag2 uses; see
// README.md for the branch and commit of each version. Not part of the
// build: g++ -std=c++17 gen.cc -lyaml-cpp -o gen
//
//	gen VALUES.yaml VERSION [ros_distro=D] [custom_data=K:V] [file=OLD:NEW]... [storage=S] [files] [span]
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

struct Profile {
  int history = 0, reliability = 0, durability = 0, liveliness = 0;
  uint64_t depth = 0;
  uint64_t deadline[2] = {0, 0}, lifespan[2] = {0, 0}, lease[2] = {0, 0};
  bool avoid = false;
};

struct Topic {
  std::string name, type, format, qos_text, hash;
  bool has_qos_text = false;
  std::vector<Profile> qos;
  uint64_t count = 0;
};

struct File {
  std::string path;
  int64_t start = 0, duration = 0;
  uint64_t count = 0;
};

struct Bag {
  std::string storage, comp_format, comp_mode, distro;
  std::vector<std::string> paths;
  int64_t duration = 0, start = 0;
  uint64_t count = 0;
  std::vector<Topic> topics;
  std::vector<File> files;
  std::vector<std::pair<std::string, std::string>> custom;
};

// Words of rmw's qos_string_conversions.c, by enum value; "unknown" is
// what rosbag2's qos.cpp writes for the UNKNOWN values.
static const char * kHistory[] = {"system_default", "keep_last", "keep_all", "unknown"};
static const char * kReliability[] = {"system_default", "reliable", "best_effort", "unknown", "best_available"};
static const char * kDurability[] = {"system_default", "transient_local", "volatile", "unknown", "best_available"};
static const char * kLiveliness[] = {"system_default", "automatic", "", "manual_by_topic", "unknown", "best_available"};

static int word_index(const YAML::Node & n, const char * const * words, int len) {
  std::string s = n.as<std::string>();
  for (int i = 0; i < len; i++) {
    if (s == words[i]) return i;
  }
  return n.as<int>();
}

static void read_time(const YAML::Node & n, uint64_t t[2]) {
  t[0] = n["sec"].as<uint64_t>();
  t[1] = n["nsec"].as<uint64_t>();
}

static std::vector<Profile> read_profiles(const YAML::Node & seq) {
  std::vector<Profile> out;
  if (!seq.IsSequence()) return out;
  for (const auto & p : seq) {
    Profile q;
    q.history = word_index(p["history"], kHistory, 4);
    q.depth = p["depth"].as<uint64_t>();
    q.reliability = word_index(p["reliability"], kReliability, 5);
    q.durability = word_index(p["durability"], kDurability, 5);
    read_time(p["deadline"], q.deadline);
    read_time(p["lifespan"], q.lifespan);
    q.liveliness = word_index(p["liveliness"], kLiveliness, 6);
    read_time(p["liveliness_lease_duration"], q.lease);
    q.avoid = p["avoid_ros_namespace_conventions"].as<bool>();
    out.push_back(q);
  }
  return out;
}

static Bag read_values(const std::string & path) {
  YAML::Node in = YAML::LoadFile(path)["rosbag2_bagfile_information"];
  Bag b;
  b.storage = in["storage_identifier"].as<std::string>();
  if (in["relative_file_paths"]) b.paths = in["relative_file_paths"].as<std::vector<std::string>>();
  b.duration = in["duration"]["nanoseconds"].as<int64_t>();
  b.start = in["starting_time"]["nanoseconds_since_epoch"].as<int64_t>();
  b.count = in["message_count"].as<uint64_t>();
  for (const auto & t : in["topics_with_message_count"]) {
    Topic tp;
    YAML::Node m = t["topic_metadata"];
    tp.name = m["name"].as<std::string>();
    tp.type = m["type"].as<std::string>();
    tp.format = m["serialization_format"].as<std::string>();
    if (m["offered_qos_profiles"]) {
      YAML::Node q = m["offered_qos_profiles"];
      if (q.IsScalar()) {
        tp.qos_text = q.as<std::string>();
        tp.has_qos_text = true;
        if (!tp.qos_text.empty()) tp.qos = read_profiles(YAML::Load(tp.qos_text));
      } else {
        tp.qos = read_profiles(q);
      }
    }
    if (m["type_description_hash"]) tp.hash = m["type_description_hash"].as<std::string>();
    tp.count = t["message_count"].as<uint64_t>();
    b.topics.push_back(tp);
  }
  if (in["compression_format"]) b.comp_format = in["compression_format"].as<std::string>();
  if (in["compression_mode"]) b.comp_mode = in["compression_mode"].as<std::string>();
  if (in["files"]) {
    for (const auto & f : in["files"]) {
      File fi;
      fi.path = f["path"].as<std::string>();
      fi.start = f["starting_time"]["nanoseconds_since_epoch"].as<int64_t>();
      fi.duration = f["duration"]["nanoseconds"].as<int64_t>();
      fi.count = f["message_count"].as<uint64_t>();
      b.files.push_back(fi);
    }
  }
  if (in["custom_data"] && in["custom_data"].IsMap()) {
    for (const auto & kv : in["custom_data"]) {
      b.custom.emplace_back(kv.first.as<std::string>(), kv.second.as<std::string>());
    }
  }
  if (in["ros_distro"]) b.distro = in["ros_distro"].as<std::string>();
  return b;
}

// convert<rmw_time_t>::encode
static YAML::Node time_node(const uint64_t t[2]) {
  YAML::Node n;
  n["sec"] = t[0];
  n["nsec"] = t[1];
  return n;
}

// convert<rclcpp::QoS>::encode (Jazzy qos.cpp; rosbag2_transport's qos.cpp
// before it, integers): the policy words from version 9 on.
static YAML::Node profile_node(const Profile & p, int version) {
  YAML::Node n;
  if (version < 9) {
    n["history"] = p.history;
    n["depth"] = p.depth;
    n["reliability"] = p.reliability;
    n["durability"] = p.durability;
  } else {
    n["history"] = std::string(kHistory[p.history]);
    n["depth"] = p.depth;
    n["reliability"] = std::string(kReliability[p.reliability]);
    n["durability"] = std::string(kDurability[p.durability]);
  }
  n["deadline"] = time_node(p.deadline);
  n["lifespan"] = time_node(p.lifespan);
  if (version < 9) {
    n["liveliness"] = p.liveliness;
  } else {
    n["liveliness"] = std::string(kLiveliness[p.liveliness]);
  }
  n["liveliness_lease_duration"] = time_node(p.lease);
  n["avoid_ros_namespace_conventions"] = p.avoid;
  return n;
}

static YAML::Node profiles_node(const std::vector<Profile> & qos, int version) {
  YAML::Node seq{YAML::NodeType::Sequence};
  for (const auto & p : qos) seq.push_back(profile_node(p, version));
  return seq;
}

static YAML::Node ns(int64_t v) {
  YAML::Node n;
  n["nanoseconds"] = v;
  return n;
}

static YAML::Node since_epoch(int64_t v) {
  YAML::Node n;
  n["nanoseconds_since_epoch"] = v;
  return n;
}

static YAML::Node topic_node(const Topic & t, int version) {
  YAML::Node m;
  m["name"] = t.name;
  m["type"] = t.type;
  m["serialization_format"] = t.format;
  if (version >= 4 && version < 9) {
    // The recorder stores the YAML::Dump of the profiles as a string.
    m["offered_qos_profiles"] = t.has_qos_text ? t.qos_text : YAML::Dump(profiles_node(t.qos, version));
  } else if (version >= 9) {
    m["offered_qos_profiles"] = profiles_node(t.qos, version);
  }
  if (version >= 7) m["type_description_hash"] = t.hash;
  YAML::Node info;
  info["topic_metadata"] = m;
  info["message_count"] = t.count;
  return info;
}

static YAML::Node bag_node(const Bag & b, int version) {
  YAML::Node n;
  YAML::Node topics{YAML::NodeType::Sequence};
  for (const auto & t : b.topics) topics.push_back(topic_node(t, version));
  n["version"] = version;
  n["storage_identifier"] = b.storage;
  if (version <= 4) {  // metadata_io.cpp, Dashing to Galactic
    n["relative_file_paths"] = b.paths;
    n["duration"] = ns(b.duration);
    n["starting_time"] = since_epoch(b.start);
    n["message_count"] = b.count;
    n["topics_with_message_count"] = topics;
    if (version >= 3) {
      n["compression_format"] = b.comp_format;
      n["compression_mode"] = b.comp_mode;
    }
    return n;
  }
  // Humble on: yaml.hpp's convert<BagMetadata>::encode.
  n["duration"] = ns(b.duration);
  n["starting_time"] = since_epoch(b.start);
  n["message_count"] = b.count;
  n["topics_with_message_count"] = topics;
  n["compression_format"] = b.comp_format;
  n["compression_mode"] = b.comp_mode;
  n["relative_file_paths"] = b.paths;
  YAML::Node files{YAML::NodeType::Sequence};
  for (const auto & f : b.files) {
    YAML::Node fn;
    fn["path"] = f.path;
    fn["starting_time"] = since_epoch(f.start);
    fn["duration"] = ns(f.duration);
    fn["message_count"] = f.count;
    files.push_back(fn);
  }
  n["files"] = files;
  if (version >= 6) {
    YAML::Node custom;  // convert<unordered_map<string,string>>::encode
    for (const auto & kv : b.custom) custom[kv.first] = kv.second;
    n["custom_data"] = custom;
  }
  if (version >= 8) n["ros_distro"] = b.distro;
  return n;
}

int main(int argc, char ** argv) {
  if (argc < 3) {
    std::cerr << "usage: gen VALUES.yaml VERSION [ros_distro=D] [custom_data=K:V] [file=OLD:NEW] [storage=S] [files]\n";
    return 2;
  }
  Bag b = read_values(argv[1]);
  int version = std::atoi(argv[2]);
  bool make_files = false;
  for (int i = 3; i < argc; i++) {
    std::string a = argv[i];
    auto eq = a.find('=');
    std::string k = a.substr(0, eq), v = eq == std::string::npos ? "" : a.substr(eq + 1);
    if (k == "ros_distro") {
      b.distro = v;
    } else if (k == "custom_data") {
      auto c = v.find(':');
      b.custom.emplace_back(v.substr(0, c), v.substr(c + 1));
    } else if (k == "file") {  // rename a storage file, as a recording under another name
      auto c = v.find(':');
      std::string from = v.substr(0, c), to = v.substr(c + 1);
      for (auto & p : b.paths) if (p == from) p = to;
      for (auto & f : b.files) if (f.path == from) f.path = to;
    } else if (k == "storage") {
      b.storage = v;
    } else if (k == "files") {
      make_files = true;
    } else if (k == "span") {
      // SequentialWriter: the bag starts at its first message and lasts to
      // its last, over all files.
      int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (const auto & f : b.files) {
        lo = std::min(lo, f.start);
        hi = std::max(hi, f.start + f.duration);
      }
      b.start = lo;
      b.duration = hi - lo;
    }
  }
  if (make_files && b.files.empty() && b.paths.size() == 1) {
    // SequentialWriter's one FileInformation for an unsplit bag.
    b.files.push_back(File{b.paths[0], b.start, b.duration, b.count});
  }
  YAML::Node root;
  root["rosbag2_bagfile_information"] = bag_node(b, version);
  std::cout << root;  // MetadataIo::write_metadata: fout << metadata_node
  return 0;
}
