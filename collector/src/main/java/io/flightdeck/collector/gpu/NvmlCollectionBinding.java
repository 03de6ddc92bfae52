package io.flightdeck.collector.gpu;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;

/**
 * How one loaded library's {@link NvmlCollectionCalls} are called: directly when the library
 * exports every one of their symbols, else looked up per call. Direct mapping registers a class's
 * native methods all at once and fails whole when a symbol is missing (drivers before R535 lack
 * {@code nvmlDeviceGetCurrentClocksEventReasons}, before R520 the GPM calls); the per-call lookup
 * then keeps every other reading.
 *
 * @param direct whether the calls are bound directly
 * @param description which binding, and why not the direct one, for the log
 */
record NvmlCollectionBinding(NvmlCollectionCalls calls, boolean direct, String description) {

  /** The direct binding when {@code library} has every symbol, else the looked-up one. */
  static NvmlCollectionBinding bind(NativeLibrary library, NvmlSymbols symbols) {
    try {
      return new NvmlCollectionBinding(directCalls(library), true, "bound directly");
    } catch (UnsatisfiedLinkError | ReflectiveOperationException | IOException e) {
      return lookedUp(
          symbols, "looked up per call (direct mapping failed: " + e.getMessage() + ")");
    }
  }

  static NvmlCollectionBinding lookedUp(NvmlSymbols symbols, String description) {
    return new NvmlCollectionBinding(new LookedUpNvmlCollectionCalls(symbols), false, description);
  }

  /**
   * A fresh hidden copy of {@link DirectNvmlCollectionCalls} with its natives registered to {@code
   * library}. JNI binds natives per class, so a second library (tests load several stubs in one
   * JVM) needs a class of its own; registering the compiled class again would rebind the calls of
   * every instance already handed out.
   */
  private static NvmlCollectionCalls directCalls(NativeLibrary library)
      throws ReflectiveOperationException, IOException {
    byte[] bytes;
    try (InputStream in =
        DirectNvmlCollectionCalls.class.getResourceAsStream(
            DirectNvmlCollectionCalls.class.getSimpleName() + ".class")) {
      if (in == null) {
        throw new IOException("no class file for " + DirectNvmlCollectionCalls.class.getName());
      }
      bytes = in.readAllBytes();
    }
    Class<?> copy = MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
    Native.register(copy, library);
    return (NvmlCollectionCalls) copy.getDeclaredConstructor().newInstance();
  }
}
