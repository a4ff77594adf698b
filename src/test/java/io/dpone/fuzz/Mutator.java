package io.dpone.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiPredicate;

/**
 * Structure-aware mutations of a valid input: one or two tree mutations on its parsed tree (or a YAML construct the
 * writer adds), written as YAML or JSON, then possibly a byte-level mutation. Deterministic for a seed.
 */
final class Mutator {
    static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<String> ODD = List.of("", " ", "\t", "a b", "a;b", "a'b", "a\"b", "a`b", "[x]", "a.b.c",
        "-x", "1abc", "ÿ", "名前", "naïve", "\u200b", "a\u200db", "\u202eevil", "\u0000", "a\u0000b", "\u0007", "😀",
        "e\u0301", "Ω", "../../etc/passwd", "${env:HOME}", "%s%n", "{{x}}", "NULL", "null", "true", "0", "-1",
        "0x", "0xZZ", "0x" + "f".repeat(65), "9".repeat(79), "１２３", "\\", "/", "*", "#x", "&x", "!x", "@x");
    private static final List<String> NUMBERS = List.of("0", "-1", "1", "2147483647", "2147483648", "-2147483648",
        "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "99999999999999999999999999999999999999", "1e308", "1.7976931348623157e309", "4.9e-324", "-0.0", "0.5",
        "1.0", "1e3", "123456789012345678901234567890.123456789");
    private static final List<String> YAML_SCALARS = List.of("yes", "no", "on", "off", "~", "null", ".inf", "-.inf",
        ".nan", "0x1F", "0o17", "017", "1_000", "1e3", "2001-12-14t21:59:43.10-05:00", "!!binary aGVsbG8=",
        "!!str 5", "!!int \"5\"", "!!float x", "!!java.lang.Runtime {}", "!<tag:yaml.org,2002:js> x",
        "!!set {a, b}", "!!omap [a: 1]", "|\n  literal", ">\n  folded", "'single ''quoted'''", "? complex");
    private static final List<byte[]> BAD_UTF8 = List.of(new byte[] {(byte) 0x80}, new byte[] {(byte) 0xC3, 0x28},
        new byte[] {(byte) 0xC0, (byte) 0xAF}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
        new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        new byte[] {(byte) 0xE2, (byte) 0x82});

    /** How a kind of input is written and which values belong to its domain. */
    record Kind(String name, boolean yaml, List<String> domain, BiPredicate<ArrayNode, Planting> planter) {
    }

    /** Plants a secret into a document. */
    record Planting(Random random, String secret) {
    }

    private final Kind kind;
    private final Random random;

    Mutator(Kind kind, long seed) {
        this.kind = kind;
        this.random = new Random(seed);
    }

    /** One case from {@code base}: its mutations and its bytes. */
    FuzzCase next(JsonNode base, int index, String secret) {
        ArrayNode holder = F.arrayNode().add(base.deepCopy());
        FuzzWriter writer = new FuzzWriter();
        List<Mutation> applied = new ArrayList<>();
        Mutation first = pick();
        boolean plant = first == Mutation.PLANT_SECRET || random.nextInt(4) == 0;
        applyTree(first, holder, writer, applied);
        if (first != Mutation.TRUNCATE && first != Mutation.INVALID_UTF8 && random.nextInt(5) == 0) {
            applyTree(pickTree(), holder, writer, applied);
        }
        // planted last, so no later mutation removes it; a document without a place for it gets none
        boolean planted = plant && kind.planter().test(holder, new Planting(random, secret));
        if (planted && !applied.contains(Mutation.PLANT_SECRET)) {
            applied.add(Mutation.PLANT_SECRET);
        }
        JsonNode root = holder.size() == 0 ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
            : holder.get(0);
        byte[] bytes = (kind.yaml() ? writer.yaml(root) : writer.json(root)).getBytes(StandardCharsets.UTF_8);
        if (first == Mutation.TRUNCATE) {
            bytes = java.util.Arrays.copyOf(bytes, bytes.length == 0 ? 0 : random.nextInt(bytes.length));
        } else if (first == Mutation.INVALID_UTF8) {
            bytes = insert(bytes, BAD_UTF8.get(random.nextInt(BAD_UTF8.size())));
        }
        return new FuzzCase(kind.name(), index, applied, bytes, planted ? secret : null);
    }

    private Mutation pick() {
        Mutation[] all = Mutation.values();
        while (true) {
            Mutation m = all[random.nextInt(all.length)];
            if (kind.yaml() || (m != Mutation.ANCHOR_ALIAS && m != Mutation.ALIAS_BOMB && m != Mutation.YAML_SCALAR)) {
                return m;
            }
        }
    }

    private Mutation pickTree() {
        while (true) {
            Mutation m = pick();
            if (m != Mutation.TRUNCATE && m != Mutation.INVALID_UTF8 && m != Mutation.PLANT_SECRET) {
                return m;
            }
        }
    }

    private byte[] insert(byte[] bytes, byte[] bad) {
        int at = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
        byte[] out = new byte[bytes.length + bad.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(bad, 0, out, at, bad.length);
        System.arraycopy(bytes, at, out, at + bad.length, bytes.length - at);
        return out;
    }

    private <T> T any(List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    private Slot slot(ArrayNode holder, boolean leavesOnly, boolean withRoot) {
        List<Slot> all = Slot.all(holder);
        List<Slot> pool = new ArrayList<>();
        for (Slot s : all) {
            if ((withRoot || !s.path().equals("$")) && (!leavesOnly || s.node().isValueNode())) {
                pool.add(s);
            }
        }
        return pool.isEmpty() ? all.get(0) : any(pool);
    }

    private ObjectNode object(ArrayNode holder) {
        List<ObjectNode> objects = new ArrayList<>();
        for (Slot s : Slot.all(holder)) {
            if (s.node() instanceof ObjectNode o) {
                objects.add(o);
            }
        }
        return objects.isEmpty() ? null : any(objects);
    }

    static JsonNode raw(String text) {
        return new POJONode(new Raw(text));
    }

    private JsonNode number(String text) {
        if (text.contains(".") || text.contains("e")) {
            return F.numberNode(new BigDecimal(text));
        }
        return F.numberNode(new BigInteger(text));
    }

    private void applyTree(Mutation m, ArrayNode holder, FuzzWriter writer, List<Mutation> applied) {
        applied.add(m);
        switch (m) {
            case WRONG_TYPE -> {
                Slot s = slot(holder, false, random.nextInt(10) == 0);
                JsonNode[] others = {F.textNode("x"), F.numberNode(7), F.booleanNode(true), F.nullNode(),
                    F.arrayNode().add("x"), F.objectNode().put("x", 1), F.numberNode(new BigDecimal("1.5")),
                    F.arrayNode(), F.objectNode()};
                s.set(any(List.of(others)));
            }
            case BOUNDARY_NUMBER -> {
                List<Slot> numeric = new ArrayList<>();
                for (Slot s : Slot.all(holder)) {
                    if (s.node().isNumber()) {
                        numeric.add(s);
                    }
                }
                Slot s = numeric.isEmpty() || random.nextInt(3) == 0 ? slot(holder, true, false) : any(numeric);
                String n = any(NUMBERS);
                s.set(random.nextInt(6) == 0 ? F.textNode(n) : number(n));
            }
            case ODD_STRING -> slot(holder, true, false).set(F.textNode(any(ODD)));
            case LONG_IDENTIFIER -> {
                int len = any(List.of(128, 129, 256, 1025, 65_537, 100_000));
                String unit = any(List.of("a", "é", "名", "_", "9"));
                slot(holder, true, false).set(F.textNode(unit.repeat(len)));
            }
            case DOMAIN_VALUE -> slot(holder, true, false).set(F.textNode(any(kind.domain())));
            case REMOVE_KEY -> {
                Slot s = slot(holder, false, false);
                if (!s.path().equals("$")) {
                    s.remove();
                }
            }
            case UNKNOWN_KEY -> {
                ObjectNode o = object(holder);
                if (o != null) {
                    o.put(any(List.of("extra", "Name", "name ", "x-note", "__proto__", "<<", "", "ñ")), "v");
                }
            }
            case DEEP_NESTING -> {
                int depth = any(List.of(8, 31, 33, 63, 65, 200, 5_000, 100_000));
                boolean arrays = random.nextBoolean();
                String open = arrays ? "[" : kind.yaml() ? "{a: " : "{\"a\": ";
                String close = arrays ? "]" : "}";
                slot(holder, false, random.nextInt(5) == 0)
                    .set(raw(open.repeat(depth) + "1" + close.repeat(depth)));
            }
            case EMPTY_OR_HUGE -> {
                Slot s = slot(holder, false, false);
                if (random.nextBoolean()) {
                    s.set(s.node().isObject() ? F.objectNode() : F.arrayNode());
                } else {
                    ArrayNode huge = F.arrayNode();
                    JsonNode element = s.node().isArray() && s.node().size() > 0 ? s.node().get(0) : s.node();
                    for (int i = 0; i < 10_000; i++) {
                        huge.add(element.deepCopy());
                    }
                    s.set(huge);
                }
            }
            case DUPLICATE_KEY -> {
                ObjectNode o = object(holder);
                if (o != null && o.size() > 0) {
                    writer.duplicateFirstKeyOf(o);
                }
            }
            case ANCHOR_ALIAS -> {
                Slot from = slot(holder, false, false);
                Slot to = slot(holder, false, false);
                if (from.path().equals(to.path()) || to.path().startsWith(from.path())) {
                    break;
                }
                if (random.nextBoolean() && from.node().isObject() && to.parent() instanceof ObjectNode parent) {
                    // a merge key: the anchored mapping's keys merged into the other one's parent
                    writer.anchor(from.node(), "m1");
                    parent.set("<<", raw("*m1"));
                } else {
                    writer.anchor(from.node(), "a1");
                    to.set(raw("*a1"));
                }
            }
            case ALIAS_BOMB -> {
                StringBuilder sb = new StringBuilder("[&l0 [\"lol\"");
                sb.append(", \"lol\"".repeat(8)).append(']');
                int levels = any(List.of(4, 9, 12));
                for (int i = 1; i < levels; i++) {
                    sb.append(", &l").append(i).append(" [");
                    for (int j = 0; j < 9; j++) {
                        sb.append(j == 0 ? "" : ", ").append("*l").append(i - 1);
                    }
                    sb.append(']');
                }
                slot(holder, false, false).set(raw(sb.append(']').toString()));
            }
            case YAML_SCALAR -> slot(holder, true, false).set(raw(any(YAML_SCALARS)));
            case TRUNCATE, INVALID_UTF8, PLANT_SECRET -> {
                // byte-level mutations (applied after writing) and the planting done by next()
            }
            default -> throw new IllegalStateException(m.name());
        }
    }
}
