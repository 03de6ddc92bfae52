package io.flightdeck.collector.gpu;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.DocumentType;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * Turns {@code nvidia-smi -q -x} output into {@link GpuReading}s, the fallback when NVML cannot be
 * loaded in-process. Tolerates the element renames between DTD versions 10 and 13 and values such
 * as {@code N/A} or {@code 45 C}. The DTD that nvidia-smi names is never fetched; a document with
 * an internal DTD subset (where entities would be declared) is rejected. Stateless and thread-safe.
 */
final class NvidiaSmiXmlParser {
  private static final Pattern NUMBER = Pattern.compile("^-?[0-9]+(\\.[0-9]+)?");
  private static final double MIB = 1024.0 * 1024.0;
  private static final double KIB = 1024.0;

  /** Clock event reason element suffixes in NVML bit order (v12 says throttle, v13 event). */
  private static final String[] REASON_SUFFIXES = {
    "gpu_idle",
    "applications_clocks_setting",
    "sw_power_cap",
    "hw_slowdown",
    "sync_boost",
    "sw_thermal_slowdown",
    "hw_thermal_slowdown",
    "hw_power_brake_slowdown",
    "display_clocks_setting"
  };

  /** The document is not well-formed or not allowed (internal DTD subset). */
  static final class NvidiaSmiXmlException extends Exception {
    NvidiaSmiXmlException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  NvidiaSmiLog parse(byte[] xml) throws NvidiaSmiXmlException {
    Document document = document(xml);
    DocumentType doctype = document.getDoctype();
    if (doctype != null
        && doctype.getInternalSubset() != null
        && !doctype.getInternalSubset().isBlank()) {
      throw new NvidiaSmiXmlException("DOCTYPE with an internal subset is not accepted", null);
    }
    Element root = document.getDocumentElement();
    List<GpuReading> gpus = new ArrayList<>();
    for (Element gpu : children(root, "gpu")) {
      gpus.add(gpu(gpus.size(), gpu));
    }
    return new NvidiaSmiLog(text(root, "driver_version").orElse(null), gpus);
  }

  private static Document document(byte[] xml) throws NvidiaSmiXmlException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      // Belt and braces: any entity or DTD the parser still wants resolves to nothing.
      builder.setEntityResolver((publicId, systemId) -> new InputSource(new StringReader("")));
      builder.setErrorHandler(null);
      return builder.parse(new ByteArrayInputStream(xml));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new NvidiaSmiXmlException(
          "not a readable nvidia-smi XML document: " + e.getMessage(), e);
    }
  }

  private static GpuReading gpu(int index, Element gpu) {
    String busId = text(gpu, "pci", "pci_bus_id").orElse(gpu.getAttribute("id"));
    GpuIdentity identity =
        new GpuIdentity(
            index,
            text(gpu, "uuid").orElse(null),
            busId.isEmpty() ? null : busId,
            text(gpu, "product_name").orElse(null));
    Map<DcgmField, Double> values = new EnumMap<>(DcgmField.class);
    put(values, DcgmField.SM_CLOCK, number(gpu, "clocks", "sm_clock"));
    put(values, DcgmField.MEM_CLOCK, number(gpu, "clocks", "mem_clock"));
    put(values, DcgmField.GPU_TEMP, number(gpu, "temperature", "gpu_temp"));
    put(values, DcgmField.MEMORY_TEMP, number(gpu, "temperature", "memory_temp"));
    put(values, DcgmField.POWER_USAGE, power(gpu));
    put(values, DcgmField.PCIE_REPLAY_COUNTER, number(gpu, "pci", "replay_counter"));
    put(values, DcgmField.PROF_PCIE_TX_BYTES, scaled(number(gpu, "pci", "tx_util"), KIB));
    put(values, DcgmField.PROF_PCIE_RX_BYTES, scaled(number(gpu, "pci", "rx_util"), KIB));
    put(values, DcgmField.GPU_UTIL, number(gpu, "utilization", "gpu_util"));
    put(values, DcgmField.MEM_COPY_UTIL, number(gpu, "utilization", "memory_util"));
    put(values, DcgmField.ENC_UTIL, number(gpu, "utilization", "encoder_util"));
    put(values, DcgmField.DEC_UTIL, number(gpu, "utilization", "decoder_util"));
    put(values, DcgmField.FB_FREE, number(gpu, "fb_memory_usage", "free"));
    put(values, DcgmField.FB_USED, number(gpu, "fb_memory_usage", "used"));
    put(values, DcgmField.FB_RESERVED, number(gpu, "fb_memory_usage", "reserved"));
    put(values, DcgmField.ECC_SBE_VOL_TOTAL, ecc(gpu, "volatile", "single_bit", "correctable"));
    put(values, DcgmField.ECC_DBE_VOL_TOTAL, ecc(gpu, "volatile", "double_bit", "uncorrectable"));
    put(values, DcgmField.ECC_SBE_AGG_TOTAL, ecc(gpu, "aggregate", "single_bit", "correctable"));
    put(values, DcgmField.ECC_DBE_AGG_TOTAL, ecc(gpu, "aggregate", "double_bit", "uncorrectable"));
    put(
        values,
        DcgmField.RETIRED_SBE,
        number(gpu, "retired_pages", "multiple_single_bit_retirement", "retired_count"));
    put(
        values,
        DcgmField.RETIRED_DBE,
        number(gpu, "retired_pages", "double_bit_retirement", "retired_count"));
    put(
        values,
        DcgmField.CORRECTABLE_REMAPPED_ROWS,
        number(gpu, "remapped_rows", "remapped_row_corr"));
    put(
        values,
        DcgmField.UNCORRECTABLE_REMAPPED_ROWS,
        number(gpu, "remapped_rows", "remapped_row_unc"));
    put(values, DcgmField.ROW_REMAP_FAILURE, yesNo(gpu, "remapped_rows", "remapped_row_failure"));
    put(values, DcgmField.CLOCKS_EVENT_REASONS, clockEventReasons(gpu));
    return new GpuReading(identity, values, processes(gpu), GpuReading.HEALTHY);
  }

  /** v12+ {@code gpu_power_readings}, v13 only has the average and instant draws. */
  private static OptionalDouble power(Element gpu) {
    for (String[] path :
        new String[][] {
          {"gpu_power_readings", "power_draw"},
          {"gpu_power_readings", "average_power_draw"},
          {"power_readings", "power_draw"}
        }) {
      OptionalDouble value = number(gpu, path);
      if (value.isPresent()) {
        return value;
      }
    }
    return OptionalDouble.empty();
  }

  /**
   * Old DTDs nest {@code single_bit/total}; newer ones split into {@code sram_correctable} and
   * {@code dram_correctable}, which together are DCGM's single-bit count.
   */
  private static OptionalDouble ecc(Element gpu, String counter, String legacy, String kind) {
    Optional<Element> errors = child(gpu, "ecc_errors").flatMap(e -> child(e, counter));
    if (errors.isEmpty()) {
      return OptionalDouble.empty();
    }
    OptionalDouble total = number(errors.get(), legacy, "total");
    if (total.isPresent()) {
      return total;
    }
    double sum = 0;
    boolean any = false;
    for (Element part : children(errors.get(), null)) {
      String name = part.getTagName();
      boolean matches =
          kind.equals("correctable")
              ? name.endsWith("_correctable")
              : name.contains("_uncorrectable");
      OptionalDouble value = parse(part.getTextContent());
      if (matches && value.isPresent()) {
        sum += value.getAsDouble();
        any = true;
      }
    }
    return any ? OptionalDouble.of(sum) : OptionalDouble.empty();
  }

  private static OptionalDouble clockEventReasons(Element gpu) {
    Optional<Element> reasons =
        child(gpu, "clocks_event_reasons").or(() -> child(gpu, "clocks_throttle_reasons"));
    if (reasons.isEmpty()) {
      return OptionalDouble.empty();
    }
    long mask = 0;
    boolean any = false;
    for (Element reason : children(reasons.get(), null)) {
      for (int bit = 0; bit < REASON_SUFFIXES.length; bit++) {
        if (reason.getTagName().endsWith("_reason_" + REASON_SUFFIXES[bit])) {
          any = true;
          if (reason.getTextContent().strip().equals("Active")) {
            mask |= 1L << bit;
          }
        }
      }
    }
    return any ? OptionalDouble.of(mask) : OptionalDouble.empty();
  }

  private static List<GpuProcess> processes(Element gpu) {
    List<GpuProcess> result = new ArrayList<>();
    Optional<Element> processes = child(gpu, "processes");
    if (processes.isEmpty()) {
      return result;
    }
    for (Element info : children(processes.get(), "process_info")) {
      OptionalDouble pid = number(info, "pid");
      if (pid.isEmpty()) {
        continue;
      }
      OptionalDouble mib = number(info, "used_memory");
      result.add(
          new GpuProcess(
              (int) pid.getAsDouble(),
              mib.isPresent()
                  ? OptionalLong.of((long) (mib.getAsDouble() * MIB))
                  : OptionalLong.empty()));
    }
    return result;
  }

  private static OptionalDouble yesNo(Element parent, String... path) {
    return switch (text(parent, path).orElse("")) {
      case "Yes" -> OptionalDouble.of(1);
      case "No" -> OptionalDouble.of(0);
      default -> OptionalDouble.empty();
    };
  }

  private static OptionalDouble scaled(OptionalDouble value, double factor) {
    return value.isPresent() ? OptionalDouble.of(value.getAsDouble() * factor) : value;
  }

  private static OptionalDouble number(Element parent, String... path) {
    return text(parent, path).map(NvidiaSmiXmlParser::parse).orElse(OptionalDouble.empty());
  }

  /**
   * The leading number of a value such as {@code 45 C} or {@code 70.53 W}; N/A and words are
   * absent.
   */
  private static OptionalDouble parse(String text) {
    Matcher matcher = NUMBER.matcher(text.strip());
    return matcher.find()
        ? OptionalDouble.of(Double.parseDouble(matcher.group()))
        : OptionalDouble.empty();
  }

  private static Optional<String> text(Element parent, String... path) {
    Optional<Element> current = Optional.of(parent);
    for (String name : path) {
      current = current.flatMap(e -> child(e, name));
    }
    return current.map(e -> e.getTextContent().strip());
  }

  /** Direct children only, so a MIG device's {@code fb_memory_usage} is not the GPU's. */
  private static Optional<Element> child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
  }

  /** Direct element children named {@code name}, or all of them when {@code name} is null. */
  private static List<Element> children(Element parent, String name) {
    List<Element> result = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && (name == null || element.getTagName().equals(name))) {
        result.add(element);
      }
    }
    return result;
  }

  private static void put(Map<DcgmField, Double> values, DcgmField field, OptionalDouble value) {
    value.ifPresent(v -> values.put(field, v));
  }
}
