import io.dpone.error.DponeException;
import io.dpone.manifest.ManifestLoader;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Times {@code ManifestLoader.load} (what {@code dpone check} and {@code dpone run} call first) on hostile and on
 * merely large manifests, in one JVM after a warm-up, and prints the outcome (the first blocker code) and the time.
 * <ul>
 *   <li>{@code one-line}: {@code {name: "aaa...a"}} on a single line of 1 MB, 8 MB and 60 MB (the shape of issue 18:
 *       SnakeYAML's cost grows with the square of a token's length);</li>
 *   <li>{@code lines-64k}: the worst the bounds still let through, lines of 64 KiB tokens up to 256 KiB, 512 KiB and
 *       1 MiB, to show the parse time is linear in the size.</li>
 * </ul>
 * Usage: {@code java -cp "target/classes:DEPS" bench/HostileInputBench.java [WORK_DIR [MB,MB,...]]} (default sizes
 * 1,8,60; a tree before the bounds needs minutes for 60).
 */
public final class HostileInputBench {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "bench/.work/hostile-input"));
        Path warm = Files.writeString(dir.resolve("warm.yaml"), "name: warm\nsource: {type: mssql}\n");
        for (int i = 0; i < 200; i++) {
            outcome(warm);
        }
        System.out.printf("%-10s %12s %10s  %s%n", "shape", "bytes", "ms", "outcome");
        String sizes = args.length > 1 ? args[1] : "1,8,60";
        for (String size : sizes.split(",")) {
            int mb = Integer.parseInt(size.strip());
            Path file = dir.resolve("one-line-" + mb + "mb.yaml");
            Files.writeString(file, "{name: \"" + "a".repeat(mb * 1_000_000 - 10) + "\"}");
            time("one-line", file);
            Files.delete(file);
        }
        for (int kib : new int[] {256, 512, 1023}) {
            Path file = dir.resolve("lines-" + kib + "kib.yaml");
            StringBuilder text = new StringBuilder("name: wide\n");
            for (int i = 0; text.length() + 65_600 < kib * 1024; i++) {
                text.append("k").append(i).append(": ").append("a".repeat(65_500)).append('\n');
            }
            Files.writeString(file, text);
            time("lines-64k", file);
            Files.delete(file);
        }
    }

    private static void time(String shape, Path file) throws Exception {
        long t0 = System.nanoTime();
        String outcome = outcome(file);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("%-10s %12d %10d  %s%n", shape, Files.size(file), ms, outcome);
    }

    private static String outcome(Path file) {
        try {
            ManifestLoader.load(file);
            return "loaded";
        } catch (DponeException e) {
            return e.blockers().get(0).code() + " (" + e.blockers().size() + " blocker(s))";
        }
    }
}
