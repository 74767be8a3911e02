/** A module with every kind of directive; jar adds ModulePackages and ModuleMainClass. */
@Deprecated(since = "test")
open module jp.testdata {
    requires java.logging;
    requires transitive java.sql;
    requires static java.compiler;
    exports jp.testdata.api;
    exports jp.testdata.impl to java.logging, java.sql;
    uses jp.testdata.api.Greeter;
    provides jp.testdata.api.Greeter with jp.testdata.impl.English;
}
