package io.flightdeck.app;

import io.flightdeck.api.TargetsSource;
import io.flightdeck.scrape.ScrapeManager;
import io.flightdeck.scrape.TargetStatus;
import java.util.List;

/** The targets API's view of the scrape manager. */
final class ScrapeTargets implements TargetsSource {
  private final ScrapeManager manager;

  ScrapeTargets(ScrapeManager manager) {
    this.manager = manager;
  }

  @Override
  public List<Active> activeTargets() {
    return manager.activeTargets().stream().map(ScrapeTargets::active).toList();
  }

  private static Active active(TargetStatus t) {
    return new Active(
        t.discoveredLabels(),
        t.labels(),
        t.scrapePool(),
        t.scrapeUrl(),
        t.globalUrl(),
        t.lastError(),
        t.lastScrapeMillis(),
        t.lastScrapeDurationSeconds(),
        switch (t.health()) {
          case UP -> Health.UP;
          case DOWN -> Health.DOWN;
          case UNKNOWN -> Health.UNKNOWN;
        },
        t.scrapeInterval(),
        t.scrapeTimeout());
  }

  @Override
  public List<Dropped> droppedTargets() {
    return manager.droppedTargets().stream()
        .map(d -> new Dropped(d.discoveredLabels(), d.scrapePool()))
        .toList();
  }

  @Override
  public List<Metadata> targetMetadata() {
    return manager.targetMetadata().stream()
        .map(m -> new Metadata(m.target(), m.metric(), m.metadata()))
        .toList();
  }
}
