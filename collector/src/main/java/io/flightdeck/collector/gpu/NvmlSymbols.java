package io.flightdeck.collector.gpu;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * NVML's functions looked up by name in one loaded library at their first call, so that a driver
 * lacking one answers {@code NVML_ERROR_FUNCTION_NOT_FOUND} for that call only. Pointers travel as
 * {@code long} addresses (NVML exists for LP64 platforms only). Thread-safe.
 */
final class NvmlSymbols {
  private final NativeLibrary library;

  /** Looked-up symbols: JNA's own cache builds a key string and locks on every lookup. */
  private final Map<String, Function> functions = new ConcurrentHashMap<>();

  NvmlSymbols(NativeLibrary library) {
    this.library = library;
  }

  /** The return code of {@code symbol} called with {@code args}. */
  int invoke(String symbol, Object... args) throws NvmlException {
    Function function = functions.get(symbol);
    if (function == null) {
      try {
        function = library.getFunction(symbol);
      } catch (UnsatisfiedLinkError e) {
        throw new NvmlException(symbol, NvmlException.FUNCTION_NOT_FOUND, "Function Not Found");
      }
      functions.put(symbol, function);
    }
    return function.invokeInt(args);
  }

  /** {@code nvmlErrorString(code)}, or a plain text when the library lacks it. */
  String errorString(int code) {
    try {
      return library.getFunction("nvmlErrorString").invokeString(new Object[] {code}, false);
    } catch (UnsatisfiedLinkError e) {
      return "NVML error " + code;
    }
  }
}
