// What the Java drivers share (compiled with each of them, see bench.weka.driver_classpath):
// reading an ARFF file with the class as last attribute, the optional "filter:<filter class>
// <filter options> --" tokens (a batch filter fitted on the training data only, then applied to
// the training and the test data), and doubles printed at full precision (Double.toString
// round-trips exactly).
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.List;
import weka.core.Instances;
import weka.core.Utils;
import weka.filters.Filter;

final class WekaIO {
    private WekaIO() {}

    static Instances read(String path) throws Exception {
        BufferedReader r = new BufferedReader(new FileReader(path));
        Instances d = new Instances(r);
        r.close();
        d.setClassIndex(d.numAttributes() - 1);
        return d;
    }

    // When args[i] is "filter:<class>", fit that filter (its options up to "--") on data[0] and
    // replace every data[k] by its filtered copy; returns the index after "--" (else i).
    static int filter(String[] args, int i, Instances[] data) throws Exception {
        if (i >= args.length || !args[i].startsWith("filter:")) return i;
        String filterName = args[i].substring(7);
        List<String> fopts = new ArrayList<String>();
        i++;
        while (!args[i].equals("--")) { fopts.add(args[i]); i++; }
        i++;
        Filter f = (Filter) Utils.forName(Filter.class, filterName, fopts.toArray(new String[0]));
        f.setInputFormat(data[0]);
        for (int k = 0; k < data.length; k++) data[k] = Filter.useFilter(data[k], f);
        return i;
    }

    // v[0],v[1],... at full double precision
    static void appendDoubles(StringBuilder sb, double[] v) {
        for (int j = 0; j < v.length; j++) {
            if (j > 0) sb.append(',');
            sb.append(Double.toString(v[j]));
        }
    }
}
