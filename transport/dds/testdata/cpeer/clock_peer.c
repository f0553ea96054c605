/* clock_peer: an independent /clock peer for simclock's interop test and
 * the C baseline of its DDS benchmarks, written against Cyclone DDS's
 * plain C API with an idlc-generated type, the way any C application
 * would be.
 *
 *   clock_peer pub N   wait for a reader, then publish N Clocks
 *                      {sec: 1000+i, nanosec: 1000*i}, 20 ms apart
 *   clock_peer sub N   print "clock <sec> <nanosec>" for each Clock
 *                      received, exit 0 after N, 1 after 20 s without
 *
 * Benchmark modes, with the QoS of simclock's benchmark peers (reliable;
 * /clock written keep-last 1 as simclock publishes it, read keep-last
 * 1000; /clock_pong read keep-last 10). Each waits in a waitset on a read
 * condition, as a C application (and ddsperf's waitset mode) does, and
 * exits when its stdin closes.
 *
 *   clock_peer pong    echo every /clock on /clock_pong
 *   clock_peer ping    print "ready" once matched with a pong; then for
 *                      each line "run SECONDS PERIOD_US" on stdin, make
 *                      round trips (publish /clock, wait for its echo on
 *                      /clock_pong) for SECONDS, one every PERIOD_US
 *                      (0: back to back), and print
 *                      "rtt <count> <median_ns> <write_median_ns>"
 *   clock_peer flood   print "ready" once matched; for each line
 *                      "run SECONDS", publish /clock (keep-last 1000) as
 *                      fast as the reliable writer takes it for SECONDS,
 *                      then a stop marker (sec -1), and print "sent <n>"
 *   clock_peer sink    count /clock (keep-last 1000); on each stop
 *                      marker print "count <n>" and start again
 *
 * The domain is ROS_DOMAIN_ID (default 0); Cyclone reads CYCLONEDDS_URI.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dds/dds.h"
#include "Clock.h"

static void die(const char *what, dds_return_t rc) {
  fprintf(stderr, "clock_peer: %s: %s\n", what, dds_strretcode(rc));
  exit(2);
}

/* Benchmark modes end when the benchmark closes their stdin. */
static void *exit_on_eof(void *arg) {
  (void)arg;
  char buf[256];
  while (fgets(buf, sizeof buf, stdin) != NULL) {
  }
  _exit(0);
  return NULL;
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static dds_entity_t endpoint(dds_entity_t pp, dds_entity_t tp, int writer, int32_t depth) {
  dds_qos_t *q = dds_create_qos();
  dds_data_representation_id_t xcdr1 = DDS_DATA_REPRESENTATION_XCDR1;
  dds_qset_data_representation(q, 1, &xcdr1);
  dds_qset_reliability(q, DDS_RELIABILITY_RELIABLE, DDS_MSECS(100));
  dds_qset_history(q, DDS_HISTORY_KEEP_LAST, depth);
  dds_entity_t e = writer ? dds_create_writer(pp, tp, q, NULL) : dds_create_reader(pp, tp, q, NULL);
  dds_delete_qos(q);
  if (e < 0)
    die(writer ? "dds_create_writer" : "dds_create_reader", e);
  return e;
}

/* waiter attaches a read condition on r to a new waitset. */
static dds_entity_t waiter(dds_entity_t pp, dds_entity_t r) {
  dds_entity_t ws = dds_create_waitset(pp);
  if (ws < 0)
    die("dds_create_waitset", ws);
  dds_entity_t rc = dds_create_readcondition(r, DDS_ANY_STATE);
  if (rc < 0)
    die("dds_create_readcondition", rc);
  dds_return_t ret = dds_waitset_attach(ws, rc, 0);
  if (ret < 0)
    die("dds_waitset_attach", ret);
  return ws;
}

static void wait_matched(dds_entity_t w, dds_entity_t r) {
  for (int i = 0; i < 4000; i++) {
    dds_publication_matched_status_t ps = {0};
    dds_subscription_matched_status_t ss = {0};
    dds_get_publication_matched_status(w, &ps);
    if (r != 0)
      dds_get_subscription_matched_status(r, &ss);
    if (ps.current_count > 0 && (r == 0 || ss.current_count > 0))
      return;
    dds_sleepfor(DDS_MSECS(5));
  }
  fprintf(stderr, "clock_peer: no peer matched\n");
  exit(1);
}

static int bench(const char *mode, dds_entity_t pp) {
  dds_entity_t clock = dds_create_topic(pp, &rosgraph_msgs_msg_dds__Clock__desc, "rt/clock", NULL, NULL);
  if (clock < 0)
    die("dds_create_topic", clock);
  dds_entity_t pong = dds_create_topic(pp, &rosgraph_msgs_msg_dds__Clock__desc, "rt/clock_pong", NULL, NULL);
  if (pong < 0)
    die("dds_create_topic", pong);
  pthread_t th;
  rosgraph_msgs_msg_dds__Clock_ m[16];
  void *samples[16];
  dds_sample_info_t infos[16];
  for (int i = 0; i < 16; i++)
    samples[i] = &m[i];

  if (strcmp(mode, "pong") == 0 || strcmp(mode, "sink") == 0) {
    int is_pong = mode[1] == 'o';
    dds_entity_t r = endpoint(pp, clock, 0, 1000);
    dds_entity_t w = is_pong ? endpoint(pp, pong, 1, 1) : 0;
    dds_entity_t ws = waiter(pp, r);
    pthread_create(&th, NULL, exit_on_eof, NULL);
    printf("ready\n");
    fflush(stdout);
    long n = 0;
    for (;;) {
      dds_waitset_wait(ws, NULL, 0, DDS_INFINITY);
      dds_return_t k;
      while ((k = dds_take(r, samples, infos, 16, 16)) > 0) {
        for (int i = 0; i < k; i++) {
          if (!infos[i].valid_data)
            continue;
          if (is_pong) {
            dds_write(w, &m[i]);
          } else if (m[i].clock.sec == -1) {
            printf("count %ld\n", n);
            fflush(stdout);
            n = 0;
          } else {
            n++;
          }
        }
      }
    }
  }

  if (strcmp(mode, "ping") == 0) {
    dds_entity_t w = endpoint(pp, clock, 1, 1);
    dds_entity_t r = endpoint(pp, pong, 0, 10);
    dds_entity_t ws = waiter(pp, r);
    wait_matched(w, r);
    printf("ready\n");
    fflush(stdout);
    size_t cap = 1 << 16;
    int64_t *rtts = malloc(cap * sizeof *rtts);
    int64_t *writes = malloc(cap * sizeof *writes);
    int32_t sec = 0;
    char line[256];
    while (fgets(line, sizeof line, stdin) != NULL) {
      double secs;
      long period_us;
      if (sscanf(line, "run %lf %ld", &secs, &period_us) != 2) {
        fprintf(stderr, "clock_peer: bad command %s", line);
        return 2;
      }
      size_t n = 0;
      int64_t start = now_ns(), end = start + (int64_t)(secs * 1e9), next = start;
      while (now_ns() < end) {
        if (period_us > 0) {
          next += period_us * 1000;
          struct timespec ts = {.tv_sec = next / 1000000000, .tv_nsec = next % 1000000000};
          clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        }
        int64_t t0 = now_ns();
        sec = sec == 0x7fffffff ? 1 : sec + 1;
        rosgraph_msgs_msg_dds__Clock_ out = {.clock = {.sec = sec}};
        dds_return_t ret = dds_write(w, &out);
        if (ret < 0)
          die("dds_write", ret);
        int64_t written = now_ns() - t0, first = t0;
        for (int got = 0; !got;) {
          dds_waitset_wait(ws, NULL, 0, DDS_SECS(1));
          dds_return_t k = dds_take(r, samples, infos, 16, 16);
          if (k < 0)
            die("dds_take", k);
          if (k == 0 && now_ns() - first > DDS_SECS(5)) {
            fprintf(stderr, "clock_peer: no pong for %d\n", sec);
            return 1;
          }
          /* A ping sent before the other side had matched this writer
             (matching is not symmetric: this side's wait_matched saw its
             own matches only) or an echo sent before its writer matched
             our reader is lost: send it again after a second without a
             pong, as the Go ping does, and time the round trip from the
             resend. */
          if (k == 0 && now_ns() - t0 > DDS_SECS(1)) {
            t0 = now_ns();
            ret = dds_write(w, &out);
            if (ret < 0)
              die("dds_write", ret);
          }
          for (int i = 0; i < k; i++)
            got |= infos[i].valid_data && m[i].clock.sec == sec;
        }
        if (n == cap) {
          cap *= 2;
          rtts = realloc(rtts, cap * sizeof *rtts);
          writes = realloc(writes, cap * sizeof *writes);
        }
        writes[n] = written;
        rtts[n++] = now_ns() - t0;
      }
      qsort(rtts, n, sizeof *rtts, cmp_i64);
      qsort(writes, n, sizeof *writes, cmp_i64);
      printf("rtt %zu %lld %lld\n", n, n > 0 ? (long long)rtts[n / 2] : 0LL, n > 0 ? (long long)writes[n / 2] : 0LL);
      fflush(stdout);
    }
    return 0;
  }

  if (strcmp(mode, "flood") == 0) {
    dds_entity_t w = endpoint(pp, clock, 1, 1000);
    wait_matched(w, 0);
    printf("ready\n");
    fflush(stdout);
    char line[256];
    int32_t sec = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
      double secs;
      if (sscanf(line, "run %lf", &secs) != 1) {
        fprintf(stderr, "clock_peer: bad command %s", line);
        return 2;
      }
      long n = 0;
      int64_t end = now_ns() + (int64_t)(secs * 1e9);
      while (now_ns() < end) {
        sec = (sec + 1) & 0x3fffffff;
        rosgraph_msgs_msg_dds__Clock_ out = {.clock = {.sec = sec}};
        if (dds_write(w, &out) >= 0)
          n++;
      }
      rosgraph_msgs_msg_dds__Clock_ stop = {.clock = {.sec = -1}};
      dds_return_t ret = dds_write(w, &stop);
      if (ret < 0)
        die("dds_write", ret);
      printf("sent %ld\n", n);
      fflush(stdout);
    }
    return 0;
  }
  fprintf(stderr, "clock_peer: unknown mode %s\n", mode);
  return 2;
}

int main(int argc, char **argv) {
  const char *d = getenv("ROS_DOMAIN_ID");
  dds_domainid_t domain = (d && *d) ? (dds_domainid_t)atoi(d) : 0;
  if (argc == 2) {
    dds_entity_t pp = dds_create_participant(domain, NULL, NULL);
    if (pp < 0)
      die("dds_create_participant", pp);
    return bench(argv[1], pp);
  }
  if (argc != 3 || (strcmp(argv[1], "pub") != 0 && strcmp(argv[1], "sub") != 0)) {
    fprintf(stderr, "usage: clock_peer pub|sub N, or clock_peer pong|ping|flood|sink\n");
    return 2;
  }
  int n = atoi(argv[2]);

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
