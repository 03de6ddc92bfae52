/*
 * A fake libnvidia-ml for tests: exports the NVML symbols JnaNvml calls and answers from a
 * key=value file named fake-nvml.conf beside this library (read by nvmlInit_v2). A key that is
 * absent answers NVML_ERROR_NOT_SUPPORTED; a value "ERR:<code>" answers that code. Keys:
 *   count, driver, xid=<gpu>:<code>,...   (queued Xid events, delivered in order)
 *   gpu<N>.name|uuid|pci|handle|lost|util|enc|dec|mem.v2|mem.v1|temp|power|energy|clock.sm|
 *   clock.mem|reasons|pcie.tx|pcie.rx|replay|ecc.<type>.<counter>|remap|field.<id>|procs|events
 * lost=1 makes every call on that device answer NVML_ERROR_GPU_IS_LOST. nvmlDeviceGetCount_v2
 * re-reads the file when it changed, so a test can change a GPU between scrapes.
 * GPM: gpu<N>.gpm is isSupportedDevice (1 or 0; absent: NOT_SUPPORTED), gpu<N>.gpm.<metricId> the
 * percent nvmlGpmMetricsGet answers for that metric (absent: NOT_SUPPORTED in its nvmlReturn).
 * Built with -DFAKE_NVML_NO_GPM it lacks the GPM symbols, as drivers before them do.
 * fake_gpm_live_samples() and fake_gpm_support_queries() let tests see what the caller did.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_ENTRIES 512
#define MAX_DEVICES 8
#define MAX_EVENTS 64

enum { OK = 0, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, UNINITIALIZED = 1,
       INSUFFICIENT_SIZE = 7, TIMEOUT = 10, GPU_IS_LOST = 15 };

static char keys[MAX_ENTRIES][64];
static char values[MAX_ENTRIES][256];
static int entries;
static struct device { int index; } devices[MAX_DEVICES];
static int event_gpu[MAX_EVENTS], event_code[MAX_EVENTS], event_count, event_next;
static unsigned long long registered[MAX_DEVICES];
static int event_set;
static int initialized;

/* Entry indexes sorted by key (then by position), so lookups are binary searches: a benchmark
 * of the agent should measure the agent, not a linear scan in its stand-in driver. */
static int order[MAX_ENTRIES];

static int by_key(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  int c = strcmp(keys[i], keys[j]);
  return c != 0 ? c : i - j;
}

static const char *get(const char *key) {
  int low = 0, high = entries;
  while (low < high) { /* the first entry whose key is not below `key` */
    int mid = (low + high) / 2;
    if (strcmp(keys[order[mid]], key) < 0) low = mid + 1; else high = mid;
  }
  return low < entries && strcmp(keys[order[low]], key) == 0 ? values[order[low]] : NULL;
}

/* The configuration file beside this library, found once. */
static const char *config_path(void) {
  static char path[4096];
  if (!path[0]) {
    Dl_info info;
    dladdr((void *)&config_path, &info);
    snprintf(path, sizeof path, "%s", info.dli_fname);
    char *slash = strrchr(path, '/');
    snprintf(slash ? slash + 1 : path, sizeof path - (slash ? (size_t)(slash + 1 - path) : 0),
             "fake-nvml.conf");
  }
  return path;
}

/* Reads the key=value entries; events are (re)queued only by nvmlInit_v2. */
static void load_entries(void) {
  entries = 0;
  FILE *f = fopen(config_path(), "r");
  if (!f) return;
  char line[400];
  while (entries < MAX_ENTRIES && fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char *eq = strchr(line, '=');
    if (line[0] == '#' || !eq) continue;
    *eq = 0;
    snprintf(keys[entries], sizeof keys[0], "%.63s", line);
    snprintf(values[entries], sizeof values[0], "%.255s", eq + 1);
    entries++;
  }
  fclose(f);
  for (int i = 0; i < entries; i++) order[i] = i;
  qsort(order, entries, sizeof order[0], by_key);
}

/* What the file looked like when last read: a real driver does no file I/O per device count, and
 * re-reading and sorting the file on every count was a twelfth of the agent benchmark's profile. */
static struct stat loaded_stat;
static int loaded;

/* Reads the entries again when the file may have changed since the last read. A file written in
 * the last two seconds is always read again: its timestamp has the kernel's coarse resolution, so
 * a second write in the same tick, of the same size, would otherwise go unseen. */
static void reload_entries_if_changed(void) {
  struct stat now;
  int found = stat(config_path(), &now) == 0;
  if (loaded && found && now.st_ino == loaded_stat.st_ino && now.st_size == loaded_stat.st_size
      && now.st_mtim.tv_sec == loaded_stat.st_mtim.tv_sec
      && now.st_mtim.tv_nsec == loaded_stat.st_mtim.tv_nsec
      && time(NULL) - now.st_mtim.tv_sec >= 2)
    return;
  load_entries();
  loaded = found;
  if (found) loaded_stat = now;
}

static void load(void) {
  load_entries();
  event_count = event_next = 0;
  const char *xid = get("xid");
  while (xid && *xid && event_count < MAX_EVENTS) {
    sscanf(xid, "%d:%d", &event_gpu[event_count], &event_code[event_count]);
    event_count++;
    xid = strchr(xid, ',');
    if (xid) xid++;
  }
  memset(registered, 0, sizeof registered);
}

static int error_of(const char *value) {
  return strncmp(value, "ERR:", 4) == 0 ? atoi(value + 4) : OK;
}

/* Looks up gpu<N>.<key> for a handle, applying the lost flag and the ERR: convention. */
static int device_value(void *handle, const char *key, const char **out) {
  if (!initialized) return UNINITIALIZED;
  struct device *d = handle;
  if (d < devices || d >= devices + MAX_DEVICES) return INVALID_ARGUMENT;
  char full[96];
  snprintf(full, sizeof full, "gpu%d.lost", d->index);
  if (get(full)) return GPU_IS_LOST;
  snprintf(full, sizeof full, "gpu%d.%s", d->index, key);
  const char *v = get(full);
  if (!v) return NOT_SUPPORTED;
  int rc = error_of(v);
  if (rc == OK && out) *out = v;
  return rc;
}

static int device_uint(void *handle, const char *key, unsigned int *out) {
  const char *v;
  int rc = device_value(handle, key, &v);
  if (rc == OK) *out = (unsigned int)strtoul(v, NULL, 10);
  return rc;
}

static int device_ull(void *handle, const char *key, unsigned long long *out) {
  const char *v;
  int rc = device_value(handle, key, &v);
  if (rc == OK) *out = strtoull(v, NULL, 10);
  return rc;
}

int nvmlInit_v2(void) {
  load();
  initialized = 1;
  const char *v = get("init");
  return v ? error_of(v) : OK;
}

int nvmlShutdown(void) {
  initialized = 0;
  return OK;
}

const char *nvmlErrorString(int code) {
  switch (code) {
    case OK: return "Success";
    case NOT_SUPPORTED: return "Not Supported";
    case TIMEOUT: return "Timeout";
    case GPU_IS_LOST: return "GPU is lost";
    case 9: return "Driver Not Loaded";
    default: return "Unknown Error";
  }
}

int nvmlSystemGetDriverVersion(char *buf, unsigned int length) {
  const char *v = get("driver");
  if (!v) return NOT_SUPPORTED;
  snprintf(buf, length, "%s", v);
  return OK;
}

int nvmlDeviceGetCount_v2(unsigned int *count) {
  if (!initialized) return UNINITIALIZED;
  reload_entries_if_changed(); /* lets a test change a GPU between scrapes, e.g. lose it */
  const char *v = get("count");
  *count = v ? (unsigned int)atoi(v) : 0;
  return OK;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void **handle) {
  if (!initialized) return UNINITIALIZED;
  if (index >= MAX_DEVICES) return INVALID_ARGUMENT;
  char key[64];
  snprintf(key, sizeof key, "gpu%u.handle", index);
  const char *v = get(key);
  if (v && error_of(v)) return error_of(v);
  devices[index].index = (int)index;
  *handle = &devices[index];
  return OK;
}

static int device_string(void *handle, const char *key, char *buf, unsigned int length) {
  const char *v;
  int rc = device_value(handle, key, &v);
  if (rc != OK) return rc;
  if (strlen(v) >= length) return INSUFFICIENT_SIZE;
  snprintf(buf, length, "%s", v);
  return OK;
}

int nvmlDeviceGetName(void *d, char *buf, unsigned int length) {
  return device_string(d, "name", buf, length);
}

int nvmlDeviceGetUUID(void *d, char *buf, unsigned int length) {
  return device_string(d, "uuid", buf, length);
}

int nvmlDeviceGetPciInfo_v3(void *d, unsigned char *pci) {
  memset(pci, 0, 68);
  return device_string(d, "pci", (char *)pci + 36, 32);
}

int nvmlDeviceGetUtilizationRates(void *d, unsigned int *util) {
  const char *v;
  int rc = device_value(d, "util", &v);
  if (rc == OK) sscanf(v, "%u,%u", &util[0], &util[1]);
  return rc;
}

int nvmlDeviceGetEncoderUtilization(void *d, unsigned int *pct, unsigned int *period) {
  *period = 167000;
  return device_uint(d, "enc", pct);
}

int nvmlDeviceGetDecoderUtilization(void *d, unsigned int *pct, unsigned int *period) {
  *period = 167000;
  return device_uint(d, "dec", pct);
}

int nvmlDeviceGetMemoryInfo_v2(void *d, unsigned char *mem) {
  if (*(unsigned int *)mem != 0x02000028) return 25; /* ARGUMENT_VERSION_MISMATCH */
  const char *v;
  int rc = device_value(d, "mem.v2", &v);
  if (rc == OK) {
    unsigned long long *m = (unsigned long long *)(mem + 8);
    sscanf(v, "%llu,%llu,%llu,%llu", &m[0], &m[1], &m[2], &m[3]);
  }
  return rc;
}

int nvmlDeviceGetMemoryInfo(void *d, unsigned long long *mem) {
  const char *v;
  int rc = device_value(d, "mem.v1", &v);
  if (rc == OK) sscanf(v, "%llu,%llu,%llu", &mem[0], &mem[1], &mem[2]);
  return rc;
}

int nvmlDeviceGetTemperature(void *d, int sensor, unsigned int *c) {
  return sensor == 0 ? device_uint(d, "temp", c) : INVALID_ARGUMENT;
}

int nvmlDeviceGetPowerUsage(void *d, unsigned int *mw) { return device_uint(d, "power", mw); }

int nvmlDeviceGetTotalEnergyConsumption(void *d, unsigned long long *mj) {
  return device_ull(d, "energy", mj);
}

int nvmlDeviceGetClockInfo(void *d, int type, unsigned int *mhz) {
  return device_uint(d, type == 1 ? "clock.sm" : type == 2 ? "clock.mem" : "clock.other", mhz);
}

int nvmlDeviceGetCurrentClocksEventReasons(void *d, unsigned long long *mask) {
  return device_ull(d, "reasons", mask);
}

int nvmlDeviceGetPcieThroughput(void *d, int counter, unsigned int *kbps) {
  return device_uint(d, counter == 0 ? "pcie.tx" : "pcie.rx", kbps);
}

int nvmlDeviceGetPcieReplayCounter(void *d, unsigned int *n) { return device_uint(d, "replay", n); }

int nvmlDeviceGetTotalEccErrors(void *d, int type, int counter, unsigned long long *n) {
  char key[32];
  snprintf(key, sizeof key, "ecc.%d.%d", type, counter);
  return device_ull(d, key, n);
}

int nvmlDeviceGetRemappedRows(void *d, unsigned int *corr, unsigned int *unc,
                              unsigned int *pending, unsigned int *failure) {
  const char *v;
  int rc = device_value(d, "remap", &v);
  if (rc == OK) sscanf(v, "%u,%u,%u,%u", corr, unc, pending, failure);
  return rc;
}

/* nvmlFieldValue_t: 40 bytes; values answered as unsigned long long (valueType 3). */
int nvmlDeviceGetFieldValues(void *d, int count, unsigned char *values) {
  int rc = device_value(d, "name", NULL);
  if (rc == GPU_IS_LOST || rc == UNINITIALIZED || rc == INVALID_ARGUMENT) return rc;
  for (int i = 0; i < count; i++) {
    unsigned char *fv = values + 40 * i;
    unsigned int id = *(unsigned int *)fv;
    char key[32];
    snprintf(key, sizeof key, "field.%u", id);
    unsigned long long value = 0;
    int field_rc = device_ull(d, key, &value);
    *(unsigned int *)(fv + 24) = 3;
    *(unsigned int *)(fv + 28) = (unsigned int)field_rc;
    *(unsigned long long *)(fv + 32) = value;
  }
  return OK;
}

/* nvmlProcessInfo_t: 24 bytes. "na" as memory answers NVML_VALUE_NOT_AVAILABLE. */
int nvmlDeviceGetComputeRunningProcesses_v3(void *d, unsigned int *count, unsigned char *infos) {
  const char *v;
  int rc = device_value(d, "procs", &v);
  if (rc != OK) return rc;
  unsigned int n = 0;
  for (const char *p = v; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) n++;
  if (*count < n) {
    *count = n;
    return INSUFFICIENT_SIZE;
  }
  *count = n;
  unsigned int i = 0;
  for (const char *p = v; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL, i++) {
    unsigned char *info = infos + 24 * i;
    memset(info, 0, 24);
    *(unsigned int *)info = (unsigned int)strtoul(p, NULL, 10);
    const char *colon = strchr(p, ':');
    *(unsigned long long *)(info + 8) =
        strncmp(colon + 1, "na", 2) == 0 ? ~0ULL : strtoull(colon + 1, NULL, 10);
    *(unsigned int *)(info + 16) = 0xFFFFFFFF;
    *(unsigned int *)(info + 20) = 0xFFFFFFFF;
  }
  return OK;
}

int nvmlEventSetCreate(void **set) {
  if (!initialized) return UNINITIALIZED;
  *set = &event_set;
  return OK;
}

int nvmlDeviceGetSupportedEventTypes(void *d, unsigned long long *types) {
  return device_ull(d, "events", types);
}

int nvmlDeviceRegisterEvents(void *d, unsigned long long types, void *set) {
  if (set != &event_set) return INVALID_ARGUMENT;
  unsigned long long supported;
  int rc = device_ull(d, "events", &supported);
  if (rc != OK) return rc;
  if (types & ~supported) return NOT_SUPPORTED;
  registered[((struct device *)d)->index] |= types;
  return OK;
}

/* nvmlEventData_t: 32 bytes. Without a queued event for a registered GPU: sleep, then TIMEOUT. */
int nvmlEventSetWait_v2(void *set, unsigned char *data, unsigned int timeout_ms) {
  if (set != &event_set) return INVALID_ARGUMENT;
  while (event_next < event_count) {
    int gpu = event_gpu[event_next], code = event_code[event_next];
    event_next++;
    if (gpu < 0 || gpu >= MAX_DEVICES || !(registered[gpu] & 0x8)) continue;
    memset(data, 0, 32);
    *(void **)data = &devices[gpu];
    *(unsigned long long *)(data + 8) = 0x8;
    *(unsigned long long *)(data + 16) = (unsigned long long)code;
    *(unsigned int *)(data + 24) = 0xFFFFFFFF;
    *(unsigned int *)(data + 28) = 0xFFFFFFFF;
    return OK;
  }
  /* As the driver: block until an event or the timeout. A zero timeout does not block: usleep(0)
   * would still give up the CPU and cost the caller a wake-up. */
  if (timeout_ms > 0) usleep(timeout_ms * 1000);
  return TIMEOUT;
}

int nvmlEventSetFree(void *set) { return set == &event_set ? OK : INVALID_ARGUMENT; }

#ifndef FAKE_NVML_NO_GPM
/* The GPM structs declared as nvml.h declares them, so gcc lays them out independently of the
 * offsets the Java binding writes. The array is API 12's size; a driver only touches numMetrics. */
#define GPM_METRIC_MAX 166
typedef struct {
  unsigned int metricId;
  int nvmlReturn;
  double value;
  struct { char *shortName; char *longName; char *unit; } metricInfo;
} gpm_metric;
typedef struct {
  unsigned int version;
  unsigned int numMetrics;
  void *sample1;
  void *sample2;
  gpm_metric metrics[GPM_METRIC_MAX];
} gpm_metrics_get;
typedef struct { unsigned int version; unsigned int isSupportedDevice; } gpm_support;

#define MAX_SAMPLES 64
/* A sample records which device it was taken on and when (a call sequence number), so
 * nvmlGpmMetricsGet can refuse samples of different devices, untaken ones, or the wrong order. */
static struct gpm_sample { int used, device, taken; unsigned long seq; } samples[MAX_SAMPLES];
static unsigned long sample_seq;
static int support_queries;

int fake_gpm_live_samples(void) {
  int live = 0;
  for (int i = 0; i < MAX_SAMPLES; i++) live += samples[i].used;
  return live;
}

int fake_gpm_support_queries(void) { return support_queries; }

static struct gpm_sample *sample_of(void *p) {
  struct gpm_sample *s = p;
  return s >= samples && s < samples + MAX_SAMPLES && s->used ? s : NULL;
}

int nvmlGpmQueryDeviceSupport(void *d, gpm_support *support) {
  support_queries++;
  if (support->version != 1) return 25; /* ARGUMENT_VERSION_MISMATCH */
  return device_uint(d, "gpm", &support->isSupportedDevice);
}

int nvmlGpmSampleAlloc(void **sample) {
  if (!initialized) return UNINITIALIZED;
  for (int i = 0; i < MAX_SAMPLES; i++) {
    if (!samples[i].used) {
      memset(&samples[i], 0, sizeof samples[i]);
      samples[i].used = 1;
      *sample = &samples[i];
      return OK;
    }
  }
  return 20; /* NVML_ERROR_MEMORY */
}

int nvmlGpmSampleFree(void *sample) {
  if (!initialized) return UNINITIALIZED;
  struct gpm_sample *s = sample_of(sample);
  if (!s) return INVALID_ARGUMENT;
  s->used = 0;
  return OK;
}

int nvmlGpmSampleGet(void *d, void *sample) {
  struct gpm_sample *s = sample_of(sample);
  if (!s) return INVALID_ARGUMENT;
  unsigned int supported = 0;
  int rc = device_uint(d, "gpm", &supported);
  if (rc != OK) return rc;
  if (!supported) return NOT_SUPPORTED;
  s->device = ((struct device *)d)->index;
  s->taken = 1;
  s->seq = ++sample_seq;
  return OK;
}

int nvmlGpmMetricsGet(gpm_metrics_get *get) {
  if (!initialized) return UNINITIALIZED;
  if (get->version != 1) return 25; /* ARGUMENT_VERSION_MISMATCH */
  struct gpm_sample *a = sample_of(get->sample1), *b = sample_of(get->sample2);
  if (get->numMetrics > GPM_METRIC_MAX || !a || !b || !a->taken || !b->taken
      || a->device != b->device || a->seq >= b->seq)
    return INVALID_ARGUMENT;
  static char short_name[] = "metric", long_name[] = "fake GPM metric", unit[] = "%";
  for (unsigned int i = 0; i < get->numMetrics; i++) {
    gpm_metric *m = &get->metrics[i];
    char key[32];
    const char *v;
    snprintf(key, sizeof key, "gpm.%u", m->metricId);
    m->nvmlReturn = device_value(&devices[a->device], key, &v);
    m->value = m->nvmlReturn == OK ? strtod(v, NULL) : 0;
    m->metricInfo.shortName = short_name;
    m->metricInfo.longName = long_name;
    m->metricInfo.unit = unit;
  }
  return OK;
}
#endif
