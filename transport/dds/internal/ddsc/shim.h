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

#endif
