// Package ddsc's C side: a raw-bytes sertype for Cyclone DDS 0.10 and thin
// wrappers that call libddsc through function pointers found with dlsym, so
// the simclock binary does not link libddsc and starts without it.
#ifndef SIMCLOCK_DDSC_SHIM_H
#define SIMCLOCK_DDSC_SHIM_H

#include <stddef.h>
#include <stdint.h>

// sc_load dlopens libddsc (path, or the default candidates when path is
// empty) and resolves every symbol the shim uses. It returns 0, or -1 with
// a message in err.
int sc_load(const char *path, char *err, size_t errlen);

int32_t sc_create_domain(uint32_t domain, const char *config);
int32_t sc_create_participant(uint32_t domain, const char *userdata);
int32_t sc_delete(int32_t entity);
const char *sc_strretcode(int32_t rc);

// sc_create_topic creates topic name with the raw sertype for type_name and
// returns the sertype that writers of this topic must use in *sertype.
int32_t sc_create_topic(int32_t pp, const char *name, const char *type_name, uintptr_t *sertype);
// sc_create_endpoint creates a writer (is_writer) or reader on topic.
int32_t sc_create_endpoint(int32_t pp, int32_t topic, int is_writer, int reliable,
                           int transient_local, int32_t depth, const char *userdata);
int32_t sc_get_guid(int32_t entity, uint8_t guid[16]);

int32_t sc_write(int32_t writer, uintptr_t sertype, const void *buf, uint32_t len);

// sc_take takes one sample. It returns 1 and fills the outputs when it took
// one (*sd is then a serdata to pass to sc_copy_free; *valid is 0 for
// samples that carry no data), 0 when none is queued, or a negative
// DDS return code.
int32_t sc_take(int32_t reader, uintptr_t *sd, uint32_t *size, int *valid,
                uint64_t *pub_handle, int64_t *src_ts);
// sc_copy_free copies the sample bytes of sd into buf (size bytes, as
// returned by sc_take) and releases sd.
void sc_copy_free(uintptr_t sd, void *buf, uint32_t size);

// sc_taken describes one sample taken by sc_take_batch.
struct sc_taken {
  uint64_t pub_handle;
  int64_t src_ts;
  uintptr_t sd; // non-zero when the payload did not fit the slab: pass to sc_copy_free
  uint32_t off, size;
  int32_t valid;
};
// sc_take_batch takes up to max samples in one call, copies each payload
// that fits into slab (slab_cap bytes, packed) and releases it. It returns
// how many it took, or a negative DDS return code.
int32_t sc_take_batch(int32_t reader, struct sc_taken *out, uint32_t max, void *slab, uint32_t slab_cap);

int32_t sc_matched_publications(int32_t reader, uint64_t *handles, uint32_t n);
int32_t sc_publication_guid(int32_t reader, uint64_t handle, uint8_t guid[16]);
int32_t sc_matched_subscriptions_count(int32_t writer);

// Waiting: a waitset with the reader (data available) and a guard
// condition attached. sc_wait returns 1 for data, 2 for the guard, 0 on
// timeout, negative on error.
int32_t sc_waiter_create(int32_t pp, int32_t reader, int32_t *ws, int32_t *guard);
int32_t sc_wait(int32_t ws, int32_t reader, int64_t timeout_ns);
int32_t sc_trigger(int32_t guard);
int32_t sc_untrigger(int32_t guard);

// A shared waitset: owned by the library (DDS_CYCLONEDDS_HANDLE), so that
// readers of any participant can join it, with a guard condition attached
// (attach argument 0); each reader is attached with its own handle as its
// argument. sc_waitset_wait waits up to timeout_ns (negative: for ever)
// and writes the readers that have data, each with its DATA_AVAILABLE
// status taken (re-armed), to readers (at most cap; the others stay
// triggered for the next wait); *woken is 1 when the guard was triggered
// (it is reset). It returns how many readers it wrote, or a negative DDS
// return code.
int32_t sc_waitset_new(int32_t *ws, int32_t *guard);
int32_t sc_waitset_attach(int32_t ws, int32_t reader);
int32_t sc_waitset_detach(int32_t ws, int32_t reader);
int32_t sc_waitset_wait(int32_t ws, int32_t guard, int64_t timeout_ns, int32_t *readers, uint32_t cap, int *woken);

// ---- discovery: DDS builtin topics ----

// sc_qos is an endpoint's QoS as discovered. Durations are ns, INT64_MAX
// for infinity. Enumerations keep Cyclone's values.
struct sc_qos {
  int32_t reliability;       // dds_reliability_kind_t
  int32_t durability;        // dds_durability_kind_t
  int32_t history_kind;      // dds_history_kind_t
  int32_t history_depth;
  int64_t deadline;
  int64_t lifespan;
  int32_t liveliness_kind;   // dds_liveliness_kind_t
  int64_t lease_duration;
  int32_t ownership;         // dds_ownership_kind_t
  int32_t ownership_strength;
  int32_t destination_order; // dds_destination_order_kind_t
  uint32_t n_data_representation;
  int16_t data_representation[4];
};

// sc_endpoint is one DCPSPublication or DCPSSubscription sample. Strings and
// user_data are malloc'd copies that sc_endpoint_free releases.
struct sc_endpoint {
  uint8_t key[16];
  uint8_t participant_key[16];
  int alive;                 // 0 when the endpoint went away
  char *topic_name;
  char *type_name;
  char *user_data;
  uint32_t user_data_len;
  // partitions holds the PARTITION policy's n_partitions names, each
  // followed by a NUL byte (partitions_len bytes in all); NULL for the
  // default partition.
  char *partitions;
  uint32_t partitions_len;
  uint32_t n_partitions;
  struct sc_qos qos;
};

// sc_participant is one DCPSParticipant sample; strings as above.
struct sc_participant {
  uint8_t key[16];
  int alive;
  char *user_data;
  uint32_t user_data_len;
  char *process_name;        // Cyclone's __ProcessName property, or NULL
  char *pid;                 // __Pid
  char *hostname;            // __Hostname
};

// Builtin topic kinds for sc_create_builtin_reader.
enum { SC_BUILTIN_PARTICIPANT = 1, SC_BUILTIN_PUBLICATION = 3, SC_BUILTIN_SUBSCRIPTION = 4 };

int32_t sc_create_builtin_reader(int32_t pp, int32_t kind);
// sc_take_endpoint takes one sample into *out: 1 when it took one, 0 when
// none is queued, negative on error. writer says whether the reader is on
// DCPSPublication, for the defaults of policies a sample lacks.
int32_t sc_take_endpoint(int32_t reader, int writer, struct sc_endpoint *out);
void sc_endpoint_free(struct sc_endpoint *e);
int32_t sc_take_participant(int32_t reader, struct sc_participant *out);
void sc_participant_free(struct sc_participant *p);

#endif
