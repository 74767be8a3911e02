package svc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Code that reads an interface's constants by reflection sees what the source declares. */
class ReflectionTest {
    private static List<String> names(Field[] fields) {
        return Arrays.stream(fields).map(Field::getName).sorted().collect(Collectors.toList());
    }

    @Test
    void an_interface_and_its_implementors_show_only_the_declared_constants() throws Exception {
        List<String> constants = Arrays.asList("POLITE", "PREFIX");
        assertEquals(constants, names(Greeter.class.getFields()));
        assertEquals(constants, names(Greeter.class.getDeclaredFields()));
        assertEquals(constants, names(Service.class.getFields()));
        for (Field field : Service.class.getFields()) {
            Object value = field.get(null);
            assertEquals(field.getName().equals("PREFIX") ? String.class : List.class,
                    field.getName().equals("PREFIX") ? value.getClass() : List.class);
            if (field.getType() == List.class) {
                assertEquals(2, ((List<?>) value).size());
            }
        }
    }

    @Test
    void an_interface_shows_only_its_declared_methods() {
        List<String> methods = Arrays.stream(Greeter.class.getDeclaredMethods())
                .map(Method::getName).sorted().collect(Collectors.toList());
        assertEquals(Arrays.asList("decorate", "greet", "name"), methods);
    }
}
