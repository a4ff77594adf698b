package io.dpone.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Reading the valid inputs the fuzzer starts from, and finding places in them to plant a secret. */
final class Trees {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final ObjectMapper JSON = new ObjectMapper();

    private Trees() {
    }

    static JsonNode yaml(String text) {
        try {
            return YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode read(Path file) {
        try {
            return file.toString().endsWith(".json") ? JSON.readTree(file.toFile()) : YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<ObjectNode> objects(ArrayNode holder) {
        List<ObjectNode> out = new ArrayList<>();
        for (Slot s : Slot.all(holder)) {
            if (s.node() instanceof ObjectNode o) {
                out.add(o);
            }
        }
        return out;
    }

    static List<Slot> strings(ArrayNode holder) {
        List<Slot> out = new ArrayList<>();
        for (Slot s : Slot.all(holder)) {
            if (s.node().isTextual()) {
                out.add(s);
            }
        }
        return out;
    }

    static <T> T any(Random random, List<T> list) {
        return list.get(random.nextInt(list.size()));
    }

    /** A secret in a credential place of any document: a credential key on an object or a URL's credential. */
    static boolean plantAnywhere(ArrayNode holder, Mutator.Planting p) {
        Random r = p.random();
        List<ObjectNode> objects = objects(holder);
        List<Slot> strings = strings(holder);
        switch (r.nextInt(4)) {
            case 0 -> {
                if (!strings.isEmpty()) {
                    any(r, strings).set(Mutator.F.textNode("jdbc:sqlserver://db.example:1433;databaseName=x;user=u;"
                        + "password=" + p.secret() + ";encrypt=true"));
                    return true;
                }
            }
            case 1 -> {
                if (!strings.isEmpty()) {
                    any(r, strings).set(Mutator.F.textNode("https://u:" + p.secret() + "@ch.example:8443/"));
                    return true;
                }
            }
            default -> {
            }
        }
        if (objects.isEmpty()) {
            return false;
        }
        any(r, objects).put(any(r, List.of("password", "token", "secret_key", "api_key", "pwd")), p.secret());
        return true;
    }

    static void write(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
