package io.flightdeck.dashboards;

import io.flightdeck.model.Clock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every dashboard the server knows: kept as files under a data directory, each change a new version
 * with who, when and a diff, any version restorable; plus the dashboards of provisioning folders
 * ({@code --dashboards.dir}), loaded at start and whenever their files change, and written back to
 * their file when saved; plus the dashboards shipped with Flightdeck, added once. All methods are
 * thread-safe.
 */
public final class DashboardStore implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DashboardStore.class);

  static final String PROVISIONING_AUTHOR = "provisioning";
  static final String SHIPPED_FOLDER = "Flightdeck";

  private final VersionFiles files;
  private final ProvisionedFolders folders;
  private final Clock clock;
  private final Map<String, StoredDashboard> current = new HashMap<>();
  private final Map<String, ProvisionedFile> provisioned = new HashMap<>();
  private final Map<Path, String> uidOfFile = new HashMap<>();
  private final Map<Path, String> provisioningErrors = new LinkedHashMap<>();
  private ScheduledExecutorService watcher;

  private DashboardStore(Path dir, List<Path> provisioningDirs, Clock clock) {
    this.files = new VersionFiles(dir);
    this.folders = new ProvisionedFolders(provisioningDirs);
    this.clock = clock;
  }

  /**
   * Opens the store in {@code dir} (created if missing), adds the shipped dashboards not added
   * before, and loads the provisioning folders once.
   */
  public static DashboardStore open(Path dir, List<Path> provisioningDirs, Clock clock) {
    DashboardStore store = new DashboardStore(dir, provisioningDirs, clock);
    try {
      Files.createDirectories(dir);
      for (String uid : store.files.uids()) {
        List<Integer> numbers = store.files.numbers(uid);
        var entry = store.files.read(uid, numbers.get(numbers.size() - 1)).orElseThrow();
        store.current.put(
            uid,
            new StoredDashboard(entry.dashboard(), entry.version().folder(), entry.version(), ""));
      }
      ShippedDashboards.addMissing(store, dir);
    } catch (IOException e) {
      throw new DashboardStoreException("cannot open the dashboard store in " + dir, e);
    }
    store.rescan();
    return store;
  }

  /** Checks the provisioning folders every {@code interval} from now on, until {@link #close}. */
  public synchronized void watch(Duration interval) {
    if (watcher != null) {
      return;
    }
    watcher =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "dashboards-provisioning");
              thread.setDaemon(true);
              return thread;
            });
    watcher.scheduleWithFixedDelay(
        () -> {
          try {
            rescan();
          } catch (RuntimeException e) {
            log.warn("dashboard provisioning scan failed: {}", e.getMessage());
          }
        },
        interval.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void close() {
    if (watcher != null) {
      watcher.shutdownNow();
      watcher = null;
    }
  }

  /** Every dashboard, ordered by folder then title. */
  public synchronized List<StoredDashboard> list() {
    List<StoredDashboard> out = new ArrayList<>(current.values());
    out.sort(
        Comparator.comparing(StoredDashboard::folder)
            .thenComparing(s -> s.dashboard().title().toLowerCase(Locale.ROOT))
            .thenComparing(s -> s.dashboard().uid()));
    return out;
  }

  public synchronized Optional<StoredDashboard> get(String uid) {
    return Optional.ofNullable(current.get(uid));
  }

  /**
   * Saves a new version of a dashboard (its uid chosen from the title when empty); a provisioned
   * one is written back to its file first. Saving what is already current keeps the version.
   */
  public synchronized StoredDashboard save(
      Dashboard dashboard, String folder, String author, String message) {
    Dashboard named =
        dashboard.uid().isEmpty() ? dashboard.withUid(freeUid(dashboard.title())) : dashboard;
    DashboardImporter.validate(named);
    ProvisionedFile file = provisioned.get(named.uid());
    if (file != null) {
      try {
        file.write(named);
        folders.wrote(file.path());
      } catch (IOException e) {
        throw new DashboardStoreException(
            "cannot write dashboard \"" + named.uid() + "\" back to " + file.path(), e);
      }
      return record(named, file.folder(), author, message, file.path().toString());
    }
    return record(named, folder == null ? "" : folder, author, message, "");
  }

  /** Deletes a dashboard and its versions; a provisioned one is refused (delete its file). */
  public synchronized void delete(String uid) {
    StoredDashboard stored = current.get(uid);
    if (stored == null) {
      throw DashboardStoreException.notFound(uid);
    }
    if (stored.provisioned()) {
      throw new DashboardStoreException(
          DashboardStoreException.Reason.BAD_REQUEST,
          "dashboard \""
              + uid
              + "\" is provisioned from "
              + stored.provisionedFrom()
              + "; delete the file instead");
    }
    try {
      files.delete(uid);
    } catch (IOException e) {
      throw new DashboardStoreException("cannot delete dashboard \"" + uid + "\"", e);
    }
    current.remove(uid);
  }

  /** Every version of a dashboard, newest first. */
  public synchronized List<DashboardVersion> versions(String uid) {
    if (!current.containsKey(uid)) {
      throw DashboardStoreException.notFound(uid);
    }
    try {
      List<DashboardVersion> out = new ArrayList<>();
      List<Integer> numbers = files.numbers(uid);
      for (int i = numbers.size() - 1; i >= 0; i--) {
        files.read(uid, numbers.get(i)).ifPresent(entry -> out.add(entry.version()));
      }
      return out;
    } catch (IOException e) {
      throw new DashboardStoreException("cannot read the versions of \"" + uid + "\"", e);
    }
  }

  /** The dashboard as it was at a version. */
  public synchronized Dashboard version(String uid, int version) {
    if (!current.containsKey(uid)) {
      throw DashboardStoreException.notFound(uid);
    }
    try {
      return files
          .read(uid, version)
          .orElseThrow(
              () ->
                  new DashboardStoreException(
                      DashboardStoreException.Reason.NOT_FOUND,
                      "dashboard \"" + uid + "\" has no version " + version))
          .dashboard();
    } catch (IOException e) {
      throw new DashboardStoreException(
          "cannot read version " + version + " of \"" + uid + "\"", e);
    }
  }

  /** Makes an old version current again, as a new version. */
  public synchronized StoredDashboard restore(String uid, int version, String author) {
    Dashboard old = version(uid, version);
    return save(old, current.get(uid).folder(), author, "restored version " + version);
  }

  /** Files in provisioning folders that could not be loaded, with why. */
  public synchronized Map<Path, String> provisioningErrors() {
    return Map.copyOf(provisioningErrors);
  }

  /** Loads new and changed provisioning files and drops the dashboards of removed ones. */
  public synchronized void rescan() {
    ProvisionedFolders.Changes changes = folders.scan();
    for (Path removed : changes.removed()) {
      provisioningErrors.remove(removed);
      String uid = uidOfFile.remove(removed);
      if (uid != null) {
        provisioned.remove(uid);
        log.info("dashboard file {} was removed; dashboard \"{}\" deleted", removed, uid);
        try {
          files.delete(uid);
        } catch (IOException e) {
          log.warn("cannot delete dashboard \"{}\": {}", uid, e.getMessage());
        }
        current.remove(uid);
      }
    }
    for (ProvisionedFolders.Found found : changes.changed()) {
      try {
        load(found);
        provisioningErrors.remove(found.path());
      } catch (DashboardFormatException | DashboardStoreException | IOException e) {
        provisioningErrors.put(found.path(), e.getMessage());
        log.warn("dashboard file {} not loaded: {}", found.path(), e.getMessage());
      }
    }
  }

  private void load(ProvisionedFolders.Found found) throws IOException {
    long size = Files.size(found.path());
    if (size > DocumentReader.MAX_BYTES) {
      throw new DashboardFormatException(
          "", "the file is " + size + " bytes, more than the limit of " + DocumentReader.MAX_BYTES);
    }
    ImportResult result = DashboardImporter.importDocument(Files.readAllBytes(found.path()));
    Dashboard dashboard = result.dashboard();
    if (dashboard.uid().isEmpty()) {
      dashboard = dashboard.withUid(uidFromFileName(found.path()));
    }
    String uid = dashboard.uid();
    ProvisionedFile owner = provisioned.get(uid);
    if (owner != null && !owner.path().equals(found.path())) {
      throw new DashboardStoreException(
          DashboardStoreException.Reason.BAD_REQUEST,
          "uid \"" + uid + "\" is already provisioned from " + owner.path());
    }
    String previousUid = uidOfFile.get(found.path());
    if (previousUid != null && !previousUid.equals(uid)) {
      provisioned.remove(previousUid);
    }
    ProvisionedFile file =
        new ProvisionedFile(found.path(), result.report().format(), found.folder());
    provisioned.put(uid, file);
    uidOfFile.put(found.path(), uid);
    record(
        dashboard,
        found.folder(),
        PROVISIONING_AUTHOR,
        "loaded from " + found.path(),
        found.path().toString());
  }

  /** Adds a version unless the dashboard and folder are what is current already. */
  private StoredDashboard record(
      Dashboard dashboard, String folder, String author, String message, String provisionedFrom) {
    String uid = dashboard.uid();
    StoredDashboard before = current.get(uid);
    if (before != null && before.dashboard().equals(dashboard) && before.folder().equals(folder)) {
      StoredDashboard same =
          new StoredDashboard(dashboard, folder, before.latest(), provisionedFrom);
      current.put(uid, same);
      return same;
    }
    List<String> diff = new ArrayList<>();
    if (before == null) {
      diff.add("created");
    } else {
      if (!before.folder().equals(folder)) {
        diff.add("moved from folder \"" + before.folder() + "\" to \"" + folder + "\"");
      }
      diff.addAll(JsonDiff.diff(ModelJson.write(before.dashboard()), ModelJson.write(dashboard)));
    }
    int number = before == null ? nextNumber(uid) : before.latest().version() + 1;
    DashboardVersion version =
        new DashboardVersion(
            number,
            Instant.ofEpochMilli(clock.millis()),
            author == null ? "" : author,
            message == null ? "" : message,
            folder,
            diff);
    try {
      files.write(uid, version, dashboard);
    } catch (IOException e) {
      throw new DashboardStoreException("cannot save dashboard \"" + uid + "\"", e);
    }
    StoredDashboard stored = new StoredDashboard(dashboard, folder, version, provisionedFrom);
    current.put(uid, stored);
    return stored;
  }

  private int nextNumber(String uid) {
    try {
      List<Integer> numbers = files.numbers(uid);
      return numbers.isEmpty() ? 1 : numbers.get(numbers.size() - 1) + 1;
    } catch (IOException e) {
      throw new DashboardStoreException("cannot read the versions of \"" + uid + "\"", e);
    }
  }

  private String freeUid(String title) {
    String slug =
        title.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    if (slug.isEmpty()) {
      slug = "dashboard";
    }
    slug = slug.substring(0, Math.min(slug.length(), 34));
    String uid = slug;
    for (int n = 2; current.containsKey(uid); n++) {
      uid = slug + "-" + n;
    }
    return uid;
  }

  private static String uidFromFileName(Path path) {
    String name = path.getFileName().toString().replaceFirst("\\.[^.]+$", "");
    String uid = name.replaceAll("[^A-Za-z0-9_-]+", "-");
    return uid.substring(0, Math.min(uid.length(), 40));
  }
}
