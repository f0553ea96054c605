/* clock_peer: an independent /clock peer for simclock's interop test,
 * written against Cyclone DDS's plain C API with an idlc-generated type,
 * the way any C application would be.
 *
 *   clock_peer pub N   wait for a reader, then publish N Clocks
 *                      {sec: 1000+i, nanosec: 1000*i}, 20 ms apart
 *   clock_peer sub N   print "clock <sec> <nanosec>" for each Clock
 *                      received, exit 0 after N, 1 after 20 s without
 *
 * The domain is ROS_DOMAIN_ID (default 0); Cyclone reads CYCLONEDDS_URI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dds/dds.h"
#include "Clock.h"

static void die(const char *what, dds_return_t rc) {
  fprintf(stderr, "clock_peer: %s: %s\n", what, dds_strretcode(rc));
  exit(2);
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "pub") != 0 && strcmp(argv[1], "sub") != 0)) {
    fprintf(stderr, "usage: clock_peer pub|sub N\n");
    return 2;
  }
  int n = atoi(argv[2]);
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_domainid_t domain = (d && *d) ? (dds_domainid_t)atoi(d) : 0;

  dds_entity_t pp = dds_create_participant(domain, NULL, NULL);
  if (pp < 0) die("dds_create_participant", pp);
  dds_entity_t tp = dds_create_topic(pp, &rosgraph_msgs_msg_dds__Clock__desc, "rt/clock", NULL, NULL);
  if (tp < 0) die("dds_create_topic", tp);
  dds_qos_t *q = dds_create_qos();
  dds_data_representation_id_t xcdr1 = DDS_DATA_REPRESENTATION_XCDR1;
  dds_qset_data_representation(q, 1, &xcdr1);

  if (strcmp(argv[1], "pub") == 0) {
    dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_MSECS(100));
    dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 1);
    dds_entity_t w = dds_create_writer(pp, tp, q, NULL);
    if (w < 0) die("dds_create_writer", w);
    dds_publication_matched_status_t st = {0};
    for (int i = 0; i < 2000 && st.current_count == 0; i++) {
      dds_get_publication_matched_status(w, &st);
      dds_sleepfor(DDS_MSECS(10));
    }
    if (st.current_count == 0) {
      fprintf(stderr, "clock_peer: no reader matched\n");
      return 1;
    }
    for (int i = 0; i < n; i++) {
      rosgraph_msgs_msg_dds__Clock_ m = {.clock = {.sec = 1000 + i, .nanosec = 1000u * (uint32_t)i}};
      dds_return_t rc = dds_write(w, &m);
      if (rc < 0) die("dds_write", rc);
      dds_sleepfor(DDS_MSECS(20));
    }
    dds_sleepfor(DDS_MSECS(200));
    printf("published %d\n", n);
  } else {
    dds_qset_reliability(q, DDS_RELIABILITY_BEST_EFFORT, 0);
    dds_qset_history(q, DDS_HISTORY_KEEP_LAST, 10);
    dds_entity_t r = dds_create_reader(pp, tp, q, NULL);
    if (r < 0) die("dds_create_reader", r);
    int got = 0;
    for (int i = 0; i < 2000 && got < n; i++) {
      rosgraph_msgs_msg_dds__Clock_ m;
      void *samples[1] = {&m};
      dds_sample_info_t info;
      while (got < n && dds_take(r, samples, &info, 1, 1) > 0) {
        if (info.valid_data) {
          printf("clock %d %u\n", m.clock.sec, m.clock.nanosec);
          fflush(stdout);
          got++;
        }
      }
      dds_sleepfor(DDS_MSECS(10));
    }
    if (got < n) {
      fprintf(stderr, "clock_peer: got %d of %d clocks\n", got, n);
      return 1;
    }
  }
  dds_delete_qos(q);
  dds_delete(pp);
  return 0;
}
