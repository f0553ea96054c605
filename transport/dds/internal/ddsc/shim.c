//go:build cgo && linux && !nodds

// The C half of package ddsc. Everything that touches Cyclone DDS's C API
// is in this file; Go calls the sc_* functions below and nothing else.
//
// libddsc is opened at run time with dlopen and every function is called
// through a pointer resolved with dlsym, declared with __typeof__ of the
// header's own prototype so the compiler checks each call against the
// installed headers. Header inline helpers (ddsi_serdata_ref/unref, ...)
// are deliberately not used: a non-inlined copy would need libddsc at link
// time.

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dds/dds.h"
#include "dds/ddsi/ddsi_sertype.h"
#include "dds/ddsi/ddsi_serdata.h"
#include "dds/ddsi/q_radmin.h"

#include "shim.h"

#define SC_FUNCS(X)                       \
  X(dds_create_domain)                    \
  X(dds_create_participant)               \
  X(dds_delete)                           \
  X(dds_strretcode)                       \
  X(dds_create_topic_sertype)             \
  X(dds_create_writer)                    \
  X(dds_create_reader)                    \
  X(dds_create_qos)                       \
  X(dds_delete_qos)                       \
  X(dds_qset_reliability)                 \
  X(dds_qset_history)                     \
  X(dds_qset_durability)                  \
  X(dds_qset_durability_service)          \
  X(dds_qset_userdata)                    \
  X(dds_qset_data_representation)         \
  X(dds_get_guid)                         \
  X(dds_time)                             \
  X(dds_writecdr)                         \
  X(dds_takecdr)                          \
  X(dds_get_matched_publications)         \
  X(dds_get_matched_publication_data)     \
  X(dds_builtintopic_free_endpoint)       \
  X(dds_get_publication_matched_status)   \
  X(dds_create_waitset)                   \
  X(dds_create_guardcondition)            \
  X(dds_set_guardcondition)               \
  X(dds_waitset_attach)                   \
  X(dds_waitset_detach)                   \
  X(dds_waitset_wait)                     \
  X(dds_set_status_mask)                  \
  X(dds_take_status)                      \
  X(ddsi_sertype_init_flags)              \
  X(ddsi_sertype_fini)                    \
  X(ddsi_serdata_init)                    \
  X(ddsi_sertype_v0)                      \
  X(dds_take)                             \
  X(dds_return_loan)                      \
  X(dds_qget_userdata)                    \
  X(dds_qget_reliability)                 \
  X(dds_qget_durability)                  \
  X(dds_qget_history)                     \
  X(dds_qget_deadline)                    \
  X(dds_qget_lifespan)                    \
  X(dds_qget_liveliness)                  \
  X(dds_qget_ownership)                   \
  X(dds_qget_ownership_strength)          \
  X(dds_qget_destination_order)           \
  X(dds_qget_data_representation)         \
  X(dds_qget_prop)                        \
  X(dds_qget_partition)                   \
  X(dds_free)

#define SC_DECLARE(f) static __typeof__(&f) p_##f;
SC_FUNCS(SC_DECLARE)

static void *lib;

int sc_load(const char *path, char *err, size_t errlen) {
  if (lib != NULL)
    return 0;
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    snprintf(err, errlen, "%s", dlerror());
    return -1;
  }
#define SC_RESOLVE(f)                                                   \
  if ((p_##f = (__typeof__(&f))dlsym(h, #f)) == NULL) {                 \
    snprintf(err, errlen, "%s: symbol %s not found (not Cyclone DDS 0.10?)", path, #f); \
    dlclose(h);                                                         \
    return -1;                                                          \
  }
  SC_FUNCS(SC_RESOLVE)
  lib = h;
  return 0;
}

/* ---- raw sertype: payloads stay opaque CDR bytes, as in rmw_cyclonedds ---- */

struct raw_serdata {
  struct ddsi_serdata c;
  uint32_t size;          // payload size, encapsulation header included
  unsigned char data[];   // size bytes, zero-padded to a multiple of 4
};

struct raw_sample {
  const void *data;
  uint32_t size;
};

static struct ddsi_serdata *raw_ref(const struct ddsi_serdata *d) {
  struct ddsi_serdata *m = (struct ddsi_serdata *)d;
  __atomic_fetch_add(&m->refc.v, 1, __ATOMIC_SEQ_CST);
  return m;
}

static void raw_unref(struct ddsi_serdata *d) {
  if (__atomic_fetch_sub(&d->refc.v, 1, __ATOMIC_SEQ_CST) == 1)
    d->ops->free(d);
}

static struct raw_serdata *raw_new(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind, size_t size) {
  size_t padded = (size + 3) & ~(size_t)3;
  struct raw_serdata *d = malloc(sizeof(*d) + padded);
  if (d == NULL)
    return NULL;
  p_ddsi_serdata_init(&d->c, type, kind);
  d->c.hash = type->serdata_basehash;
  d->size = (uint32_t)size;
  memset(d->data + size, 0, padded - size);
  return d;
}

static bool raw_eqkey(const struct ddsi_serdata *a, const struct ddsi_serdata *b) {
  (void)a; (void)b;
  return true; // keyless: one instance
}

static uint32_t raw_get_size(const struct ddsi_serdata *d) {
  return ((const struct raw_serdata *)d)->size;
}

static struct ddsi_serdata *raw_from_ser(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind,
                                         const struct nn_rdata *frag, size_t size) {
  struct raw_serdata *d = raw_new(type, kind, size);
  if (d == NULL)
    return NULL;
  uint32_t off = 0;
  for (; frag != NULL; frag = frag->nextfrag) {
    if (frag->maxp1 > off && frag->min <= off) {
      const unsigned char *payload = NN_RMSG_PAYLOADOFF(frag->rmsg, NN_RDATA_PAYLOAD_OFF(frag));
      uint32_t end = frag->maxp1 < size ? frag->maxp1 : (uint32_t)size;
      if (end > off) {
        memcpy(d->data + off, payload + (off - frag->min), end - off);
        off = end;
      }
    }
  }
  return &d->c;
}

static struct ddsi_serdata *raw_from_ser_iov(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind,
                                             ddsrt_msg_iovlen_t niov, const ddsrt_iovec_t *iov, size_t size) {
  struct raw_serdata *d = raw_new(type, kind, size);
  if (d == NULL)
    return NULL;
  size_t off = 0;
  for (ddsrt_msg_iovlen_t i = 0; i < niov && off < size; i++) {
    size_t n = iov[i].iov_len;
    if (n > size - off)
      n = size - off;
    memcpy(d->data + off, iov[i].iov_base, n);
    off += n;
  }
  return &d->c;
}

static struct ddsi_serdata *raw_from_keyhash(const struct ddsi_sertype *type, const struct ddsi_keyhash *kh) {
  (void)kh;
  struct raw_serdata *d = raw_new(type, SDK_KEY, 0);
  return d ? &d->c : NULL;
}

static struct ddsi_serdata *raw_from_sample(const struct ddsi_sertype *type, enum ddsi_serdata_kind kind, const void *sample) {
  const struct raw_sample *s = sample;
  size_t size = (kind == SDK_DATA && s != NULL) ? s->size : 0;
  struct raw_serdata *d = raw_new(type, kind, size);
  if (d == NULL)
    return NULL;
  if (size > 0)
    memcpy(d->data, s->data, size);
  return &d->c;
}

static void raw_to_ser(const struct ddsi_serdata *dc, size_t off, size_t sz, void *buf) {
  const struct raw_serdata *d = (const struct raw_serdata *)dc;
  memcpy(buf, d->data + off, sz);
}

static struct ddsi_serdata *raw_to_ser_ref(const struct ddsi_serdata *dc, size_t off, size_t sz, ddsrt_iovec_t *ref) {
  const struct raw_serdata *d = (const struct raw_serdata *)dc;
  ref->iov_base = (void *)(d->data + off);
  ref->iov_len = (ddsrt_iov_len_t)sz;
  return raw_ref(dc);
}

static void raw_to_ser_unref(struct ddsi_serdata *d, const ddsrt_iovec_t *ref) {
  (void)ref;
  raw_unref(d);
}

static bool raw_to_sample(const struct ddsi_serdata *dc, void *sample, void **bufptr, void *buflim) {
  (void)bufptr; (void)buflim;
  const struct raw_serdata *d = (const struct raw_serdata *)dc;
  struct raw_sample *s = sample;
  s->data = d->data;
  s->size = d->size;
  return true;
}

static struct ddsi_serdata *raw_to_untyped(const struct ddsi_serdata *d) {
  return raw_ref(d); // keyless: the key is empty, any serdata will do
}

static bool raw_untyped_to_sample(const struct ddsi_sertype *type, const struct ddsi_serdata *d, void *sample,
                                  void **bufptr, void *buflim) {
  (void)type; (void)d; (void)sample; (void)bufptr; (void)buflim;
  return true;
}

static void raw_free(struct ddsi_serdata *d) { free(d); }

static size_t raw_print(const struct ddsi_sertype *type, const struct ddsi_serdata *dc, char *buf, size_t size) {
  (void)type;
  return (size_t)snprintf(buf, size, "(%u raw bytes)", ((const struct raw_serdata *)dc)->size);
}

static void raw_get_keyhash(const struct ddsi_serdata *d, struct ddsi_keyhash *buf, bool force_md5) {
  (void)d; (void)force_md5;
  memset(buf, 0, sizeof(*buf));
}

static const struct ddsi_serdata_ops raw_serdata_ops = {
  .eqkey = raw_eqkey,
  .get_size = raw_get_size,
  .from_ser = raw_from_ser,
  .from_ser_iov = raw_from_ser_iov,
  .from_keyhash = raw_from_keyhash,
  .from_sample = raw_from_sample,
  .to_ser = raw_to_ser,
  .to_ser_ref = raw_to_ser_ref,
  .to_ser_unref = raw_to_ser_unref,
  .to_sample = raw_to_sample,
  .to_untyped = raw_to_untyped,
  .untyped_to_sample = raw_untyped_to_sample,
  .free = raw_free,
  .print = raw_print,
  .get_keyhash = raw_get_keyhash,
};

static void rawtype_free(struct ddsi_sertype *tp) {
  p_ddsi_sertype_fini(tp);
  free(tp);
}

static void rawtype_zero_samples(const struct ddsi_sertype *tp, void *samples, size_t count) {
  (void)tp;
  memset(samples, 0, count * sizeof(struct raw_sample));
}

static void rawtype_realloc_samples(void **ptrs, const struct ddsi_sertype *tp, void *old, size_t oldcount, size_t count) {
  (void)tp;
  struct raw_sample *s = realloc(old, count * sizeof(struct raw_sample));
  if (s != NULL && count > oldcount)
    memset(s + oldcount, 0, (count - oldcount) * sizeof(struct raw_sample));
  for (size_t i = 0; i < count; i++)
    ptrs[i] = s ? &s[i] : NULL;
}

static void rawtype_free_samples(const struct ddsi_sertype *tp, void **ptrs, size_t count, dds_free_op_t op) {
  (void)tp; (void)count;
  if ((op & DDS_FREE_ALL_BIT) && count > 0)
    free(ptrs[0]);
}

static bool rawtype_equal(const struct ddsi_sertype *a, const struct ddsi_sertype *b) {
  (void)a; (void)b;
  return true; // same name, same ops: the same opaque type
}

static uint32_t rawtype_hash(const struct ddsi_sertype *tp) {
  (void)tp;
  return 0x51c10c4u;
}

static size_t rawtype_serialized_size(const struct ddsi_sertype *tp, const void *sample) {
  (void)tp;
  return ((const struct raw_sample *)sample)->size;
}

static bool rawtype_serialize_into(const struct ddsi_sertype *tp, const void *sample, void *dst, size_t dst_size) {
  (void)tp;
  const struct raw_sample *s = sample;
  if (dst_size < s->size)
    return false;
  memcpy(dst, s->data, s->size);
  return true;
}

// raw_sertype_ops.version is the address of ddsi_sertype_v0 in the loaded
// library, so it is filled in by sc_create_topic.
static struct ddsi_sertype_ops raw_sertype_ops = {
  .free = rawtype_free,
  .zero_samples = rawtype_zero_samples,
  .realloc_samples = rawtype_realloc_samples,
  .free_samples = rawtype_free_samples,
  .equal = rawtype_equal,
  .hash = rawtype_hash,
  .get_serialized_size = rawtype_serialized_size,
  .serialize_into = rawtype_serialize_into,
};

/* ---- entities ---- */

int32_t sc_create_domain(uint32_t domain, const char *config) {
  return p_dds_create_domain(domain, config);
}

int32_t sc_create_participant(uint32_t domain, const char *userdata) {
  dds_qos_t *q = p_dds_create_qos();
  if (userdata[0] != '\0')
    p_dds_qset_userdata(q, userdata, strlen(userdata));
  dds_entity_t pp = p_dds_create_participant(domain, q, NULL);
  p_dds_delete_qos(q);
  return pp;
}

int32_t sc_delete(int32_t entity) { return p_dds_delete(entity); }

const char *sc_strretcode(int32_t rc) { return p_dds_strretcode(rc); }

int32_t sc_create_topic(int32_t pp, const char *name, const char *type_name, uintptr_t *sertype) {
  raw_sertype_ops.version = p_ddsi_sertype_v0;
  struct ddsi_sertype *st = calloc(1, sizeof(*st));
  if (st == NULL)
    return DDS_RETCODE_OUT_OF_RESOURCES;
  p_ddsi_sertype_init_flags(st, type_name, &raw_sertype_ops, &raw_serdata_ops, DDSI_SERTYPE_FLAG_TOPICKIND_NO_KEY);
  st->allowed_data_representation = DDS_DATA_REPRESENTATION_FLAG_XCDR1;
  // On success Cyclone owns st (and may swap in an equal, already known sertype).
  dds_entity_t tp = p_dds_create_topic_sertype(pp, name, &st, NULL, NULL, NULL);
  if (tp > 0)
    *sertype = (uintptr_t)st;
  return tp;
}

int32_t sc_create_endpoint(int32_t pp, int32_t topic, int is_writer, int reliable,
                           int transient_local, int32_t depth, const char *userdata) {
  (void)pp;
  dds_qos_t *q = p_dds_create_qos();
  p_dds_qset_reliability(q, reliable ? DDS_RELIABILITY_RELIABLE : DDS_RELIABILITY_BEST_EFFORT, DDS_MSECS(100));
  if (depth < 0)
    p_dds_qset_history(q, DDS_HISTORY_KEEP_ALL, 0);
  else
    p_dds_qset_history(q, DDS_HISTORY_KEEP_LAST, depth);
  p_dds_qset_durability(q, transient_local ? DDS_DURABILITY_TRANSIENT_LOCAL : DDS_DURABILITY_VOLATILE);
  // Cyclone keeps durability_service.history samples for late joiners of a
  // transient-local writer (default 1); make it the history depth.
  if (transient_local && depth > 0)
    p_dds_qset_durability_service(q, 0, DDS_HISTORY_KEEP_LAST, depth, DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED, DDS_LENGTH_UNLIMITED);
  dds_data_representation_id_t xcdr1 = DDS_DATA_REPRESENTATION_XCDR1;
  p_dds_qset_data_representation(q, 1, &xcdr1);
  if (userdata[0] != '\0')
    p_dds_qset_userdata(q, userdata, strlen(userdata));
  dds_entity_t e = is_writer ? p_dds_create_writer(pp, topic, q, NULL) : p_dds_create_reader(pp, topic, q, NULL);
  p_dds_delete_qos(q);
  if (e > 0 && !is_writer)
    p_dds_set_status_mask(e, DDS_DATA_AVAILABLE_STATUS);
  return e;
}

int32_t sc_get_guid(int32_t entity, uint8_t guid[16]) {
  dds_guid_t g;
  dds_return_t rc = p_dds_get_guid(entity, &g);
  if (rc == 0)
    memcpy(guid, g.v, 16);
  return rc;
}

int32_t sc_write(int32_t writer, uintptr_t sertype, const void *buf, uint32_t len) {
  const struct ddsi_sertype *st = (const struct ddsi_sertype *)sertype;
  struct raw_serdata *d = raw_new(st, SDK_DATA, len);
  if (d == NULL)
    return DDS_RETCODE_OUT_OF_RESOURCES;
  memcpy(d->data, buf, len);
  d->c.timestamp.v = p_dds_time();
  return p_dds_writecdr(writer, &d->c); // consumes the reference
}

int32_t sc_take(int32_t reader, uintptr_t *sd, uint32_t *size, int *valid,
                uint64_t *pub_handle, int64_t *src_ts) {
  struct ddsi_serdata *d = NULL;
  dds_sample_info_t si;
  dds_return_t n = p_dds_takecdr(reader, &d, 1, &si, DDS_ANY_STATE);
  if (n <= 0)
    return n;
  *sd = (uintptr_t)d;
  *size = si.valid_data ? ((struct raw_serdata *)d)->size : 0;
  *valid = si.valid_data;
  *pub_handle = si.publication_handle;
  *src_ts = si.source_timestamp;
  return 1;
}

void sc_copy_free(uintptr_t sd, void *buf, uint32_t size) {
  struct raw_serdata *d = (struct raw_serdata *)sd;
  if (size > 0)
    memcpy(buf, d->data, size);
  raw_unref(&d->c);
}

int32_t sc_take_batch(int32_t reader, struct sc_taken *out, uint32_t max, void *slab, uint32_t slab_cap) {
  enum { MAXB = 64 };
  struct ddsi_serdata *ds[MAXB];
  dds_sample_info_t si[MAXB];
  if (max > MAXB)
    max = MAXB;
  dds_return_t n = p_dds_takecdr(reader, ds, max, si, DDS_ANY_STATE);
  if (n <= 0)
    return n;
  uint32_t used = 0;
  for (dds_return_t i = 0; i < n; i++) {
    struct raw_serdata *d = (struct raw_serdata *)ds[i];
    out[i].pub_handle = si[i].publication_handle;
    out[i].src_ts = si[i].source_timestamp;
    out[i].valid = si[i].valid_data;
    out[i].size = si[i].valid_data ? (uint32_t)d->size : 0;
    out[i].off = used;
    out[i].sd = 0;
    if (out[i].size <= slab_cap - used) {
      if (out[i].size > 0)
        memcpy((char *)slab + used, d->data, out[i].size);
      used += out[i].size;
      raw_unref(&d->c);
    } else {
      out[i].sd = (uintptr_t)d;
    }
  }
  return n;
}

int32_t sc_matched_publications(int32_t reader, uint64_t *handles, uint32_t n) {
  return p_dds_get_matched_publications(reader, handles, n);
}

int32_t sc_publication_guid(int32_t reader, uint64_t handle, uint8_t guid[16]) {
  dds_builtintopic_endpoint_t *ep = p_dds_get_matched_publication_data(reader, handle);
  if (ep == NULL)
    return DDS_RETCODE_BAD_PARAMETER;
  memcpy(guid, ep->key.v, 16);
  p_dds_builtintopic_free_endpoint(ep);
  return 0;
}

int32_t sc_matched_subscriptions_count(int32_t writer) {
  dds_publication_matched_status_t st;
  dds_return_t rc = p_dds_get_publication_matched_status(writer, &st);
  if (rc < 0)
    return rc;
  return (int32_t)st.current_count;
}

int32_t sc_waiter_create(int32_t pp, int32_t reader, int32_t *ws, int32_t *guard) {
  dds_entity_t w = p_dds_create_waitset(pp);
  if (w < 0)
    return w;
  dds_entity_t g = p_dds_create_guardcondition(pp);
  if (g < 0) {
    p_dds_delete(w);
    return g;
  }
  dds_return_t rc;
  if ((rc = p_dds_waitset_attach(w, reader, 1)) < 0 || (rc = p_dds_waitset_attach(w, g, 2)) < 0) {
    p_dds_delete(g);
    p_dds_delete(w);
    return rc;
  }
  *ws = w;
  *guard = g;
  return 0;
}

int32_t sc_wait(int32_t ws, int32_t reader, int64_t timeout_ns) {
  dds_attach_t xs[2];
  dds_return_t n = p_dds_waitset_wait(ws, xs, 2, timeout_ns);
  if (n <= 0)
    return n;
  int32_t result = 0;
  for (dds_return_t i = 0; i < n; i++) {
    if (xs[i] == 2)
      return 2;
    if (xs[i] == 1)
      result = 1;
  }
  if (result == 1) {
    uint32_t status;
    p_dds_take_status(reader, &status, DDS_DATA_AVAILABLE_STATUS); // re-arm
  }
  return result;
}

int32_t sc_trigger(int32_t guard) { return p_dds_set_guardcondition(guard, true); }

int32_t sc_untrigger(int32_t guard) { return p_dds_set_guardcondition(guard, false); }

int32_t sc_waitset_new(int32_t *ws, int32_t *guard) {
  dds_entity_t w = p_dds_create_waitset(DDS_CYCLONEDDS_HANDLE);
  if (w < 0)
    return w;
  dds_entity_t g = p_dds_create_guardcondition(DDS_CYCLONEDDS_HANDLE);
  if (g < 0) {
    p_dds_delete(w);
    return g;
  }
  dds_return_t rc = p_dds_waitset_attach(w, g, 0);
  if (rc < 0) {
    p_dds_delete(g);
    p_dds_delete(w);
    return rc;
  }
  *ws = w;
  *guard = g;
  return 0;
}

int32_t sc_waitset_attach(int32_t ws, int32_t reader) { return p_dds_waitset_attach(ws, reader, reader); }

int32_t sc_waitset_detach(int32_t ws, int32_t reader) { return p_dds_waitset_detach(ws, reader); }

int32_t sc_waitset_wait(int32_t ws, int32_t guard, int64_t timeout_ns, int32_t *readers, uint32_t cap, int *woken) {
  dds_attach_t xs[64];
  size_t nxs = cap + 1 < 64 ? cap + 1 : 64;
  *woken = 0;
  dds_return_t n = p_dds_waitset_wait(ws, xs, nxs, timeout_ns < 0 ? DDS_INFINITY : timeout_ns);
  if (n <= 0)
    return n;
  if ((size_t)n > nxs)
    n = (dds_return_t)nxs;
  int32_t k = 0;
  for (dds_return_t i = 0; i < n; i++) {
    if (xs[i] == 0) {
      *woken = 1;
      p_dds_set_guardcondition(guard, false);
    } else if ((uint32_t)k < cap) {
      uint32_t status;
      p_dds_take_status((dds_entity_t)xs[i], &status, DDS_DATA_AVAILABLE_STATUS); // re-arm
      readers[k++] = (int32_t)xs[i];
    }
  }
  return k;
}

/* ---- discovery: DDS builtin topics ---- */

int32_t sc_create_builtin_reader(int32_t pp, int32_t kind) {
  dds_entity_t topic;
  switch (kind) {
  case SC_BUILTIN_PARTICIPANT: topic = DDS_BUILTIN_TOPIC_DCPSPARTICIPANT; break;
  case SC_BUILTIN_PUBLICATION: topic = DDS_BUILTIN_TOPIC_DCPSPUBLICATION; break;
  case SC_BUILTIN_SUBSCRIPTION: topic = DDS_BUILTIN_TOPIC_DCPSSUBSCRIPTION; break;
  default: return DDS_RETCODE_BAD_PARAMETER;
  }
  return p_dds_create_reader(pp, topic, NULL, NULL);
}

static char *sc_strdup(const char *s) {
  return s == NULL ? NULL : strdup(s);
}

static void get_userdata(const dds_qos_t *q, char **out, uint32_t *len) {
  void *ud = NULL;
  size_t sz = 0;
  *out = NULL;
  *len = 0;
  if (q == NULL || !p_dds_qget_userdata(q, &ud, &sz) || ud == NULL)
    return;
  *out = malloc(sz + 1);
  if (*out != NULL) {
    memcpy(*out, ud, sz);
    (*out)[sz] = 0;
    *len = (uint32_t)sz;
  }
  p_dds_free(ud);
}

// get_qos fills *o from q, with the DDS defaults of an endpoint of the
// given kind for policies q does not carry.
static void get_qos(const dds_qos_t *q, int writer, struct sc_qos *o) {
  dds_reliability_kind_t rel = writer ? DDS_RELIABILITY_RELIABLE : DDS_RELIABILITY_BEST_EFFORT;
  dds_duration_t mbt;
  dds_durability_kind_t dur = DDS_DURABILITY_VOLATILE;
  dds_history_kind_t hk = DDS_HISTORY_KEEP_LAST;
  int32_t depth = 1;
  dds_duration_t deadline = DDS_INFINITY, lifespan = DDS_INFINITY, lease = DDS_INFINITY;
  dds_liveliness_kind_t lk = DDS_LIVELINESS_AUTOMATIC;
  dds_ownership_kind_t own = DDS_OWNERSHIP_SHARED;
  int32_t strength = 0;
  dds_destination_order_kind_t dord = DDS_DESTINATIONORDER_BY_RECEPTION_TIMESTAMP;
  uint32_t nrep = 0;
  dds_data_representation_id_t *reps = NULL;
  if (q != NULL) {
    p_dds_qget_reliability(q, &rel, &mbt);
    p_dds_qget_durability(q, &dur);
    p_dds_qget_history(q, &hk, &depth);
    p_dds_qget_deadline(q, &deadline);
    p_dds_qget_lifespan(q, &lifespan);
    p_dds_qget_liveliness(q, &lk, &lease);
    p_dds_qget_ownership(q, &own);
    p_dds_qget_ownership_strength(q, &strength);
    p_dds_qget_destination_order(q, &dord);
    p_dds_qget_data_representation(q, &nrep, &reps);
  }
  o->reliability = rel;
  o->durability = dur;
  o->history_kind = hk;
  o->history_depth = depth;
  o->deadline = deadline;
  o->lifespan = lifespan;
  o->liveliness_kind = lk;
  o->lease_duration = lease;
  o->ownership = own;
  o->ownership_strength = strength;
  o->destination_order = dord;
  o->n_data_representation = 0;
  for (uint32_t i = 0; reps != NULL && i < nrep && i < 4; i++)
    o->data_representation[o->n_data_representation++] = reps[i];
  if (reps != NULL)
    p_dds_free(reps);
}

// get_partitions copies the PARTITION policy of q into out as one string,
// the names separated by NUL bytes (a name cannot hold one). An endpoint
// without the policy, or with an empty list, is in the default partition
// and gets none.
static void get_partitions(const dds_qos_t *q, struct sc_endpoint *out) {
  uint32_t n = 0;
  char **ps = NULL;
  out->partitions = NULL;
  out->partitions_len = 0;
  out->n_partitions = 0;
  if (q == NULL || !p_dds_qget_partition(q, &n, &ps) || ps == NULL)
    return;
  size_t total = 0;
  for (uint32_t i = 0; i < n; i++)
    total += strlen(ps[i]) + 1;
  out->partitions = malloc(total + 1);
  if (out->partitions != NULL) {
    char *w = out->partitions;
    for (uint32_t i = 0; i < n; i++) {
      size_t l = strlen(ps[i]);
      memcpy(w, ps[i], l + 1);
      w += l + 1;
    }
    out->partitions_len = (uint32_t)total;
    out->n_partitions = n;
  }
  for (uint32_t i = 0; i < n; i++)
    p_dds_free(ps[i]);
  p_dds_free(ps);
}

int32_t sc_take_endpoint(int32_t reader, int writer, struct sc_endpoint *out) {
  void *buf[1] = {NULL};
  dds_sample_info_t si;
  dds_return_t n = p_dds_take(reader, buf, &si, 1, 1);
  if (n <= 0)
    return n;
  const dds_builtintopic_endpoint_t *ep = buf[0];
  memset(out, 0, sizeof(*out));
  memcpy(out->key, ep->key.v, 16);
  memcpy(out->participant_key, ep->participant_key.v, 16);
  out->alive = si.instance_state == DDS_IST_ALIVE;
  if (si.valid_data) {
    out->topic_name = sc_strdup(ep->topic_name);
    out->type_name = sc_strdup(ep->type_name);
    get_userdata(ep->qos, &out->user_data, &out->user_data_len);
    get_partitions(ep->qos, out);
  }
  get_qos(si.valid_data ? ep->qos : NULL, writer, &out->qos);
  p_dds_return_loan(reader, buf, n);
  return 1;
}

void sc_endpoint_free(struct sc_endpoint *e) {
  free(e->topic_name);
  free(e->type_name);
  free(e->user_data);
  free(e->partitions);
}

static char *get_prop(const dds_qos_t *q, const char *name) {
  char *v = NULL;
  if (q == NULL || !p_dds_qget_prop(q, name, &v) || v == NULL)
    return NULL;
  char *c = strdup(v);
  p_dds_free(v);
  return c;
}

int32_t sc_take_participant(int32_t reader, struct sc_participant *out) {
  void *buf[1] = {NULL};
  dds_sample_info_t si;
  dds_return_t n = p_dds_take(reader, buf, &si, 1, 1);
  if (n <= 0)
    return n;
  const dds_builtintopic_participant_t *p = buf[0];
  memset(out, 0, sizeof(*out));
  memcpy(out->key, p->key.v, 16);
  out->alive = si.instance_state == DDS_IST_ALIVE;
  if (si.valid_data) {
    get_userdata(p->qos, &out->user_data, &out->user_data_len);
    out->process_name = get_prop(p->qos, "__ProcessName");
    out->pid = get_prop(p->qos, "__Pid");
    out->hostname = get_prop(p->qos, "__Hostname");
  }
  p_dds_return_loan(reader, buf, n);
  return 1;
}

void sc_participant_free(struct sc_participant *p) {
  free(p->user_data);
  free(p->process_name);
  free(p->pid);
  free(p->hostname);
}
