// Fit a Weka Discretize filter on one ARFF file (class = last attribute) and print the cut points
// it learned, with full double precision (Double.toString round-trips exactly), plus the seconds
// Weka spent filtering the training data (setInputFormat + Filter.useFilter), once per repeat.
// Usage: java -cp weka.jar:. WekaCuts <train.arff> <repeats> <filter class> [filter options...]
// Output (stdout): one line per attribute except the class:
//   "<index> nominal"  (not a numeric attribute: left alone by the filter)
//   "<index> all"      (numeric, no cut point: Weka's single bin 'All')
//   "<index> c1,c2,..." (numeric, ascending cut points)
// Last line on stderr: "#fit_s=<s1>,<s2>,..."
import java.util.Arrays;
import weka.core.Instances;
import weka.core.Utils;
import weka.filters.Filter;

public class WekaCuts {
    static double[] cutPoints(Filter f, int index) {
        if (f instanceof weka.filters.supervised.attribute.Discretize)
            return ((weka.filters.supervised.attribute.Discretize) f).getCutPoints(index);
        if (f instanceof weka.filters.unsupervised.attribute.Discretize)
            return ((weka.filters.unsupervised.attribute.Discretize) f).getCutPoints(index);
        throw new IllegalArgumentException("not a Discretize filter: " + f.getClass().getName());
    }

    public static void main(String[] args) throws Exception {
        Instances train = WekaIO.read(args[0]);
        int repeats = Integer.parseInt(args[1]);
        String name = args[2];
        String[] opts = Arrays.copyOfRange(args, 3, args.length);
        Filter f = null;
        StringBuilder times = new StringBuilder();
        for (int k = 0; k < repeats; k++) {
            f = (Filter) Utils.forName(Filter.class, name, opts.clone());
            long t0 = System.nanoTime();
            f.setInputFormat(train);
            Instances out = Filter.useFilter(train, f);
            long t1 = System.nanoTime();
            if (out.numInstances() != train.numInstances()) throw new IllegalStateException("lost instances");
            if (k > 0) times.append(',');
            times.append((t1 - t0) / 1e9);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < train.numAttributes(); i++) {
            if (i == train.classIndex()) continue;
            sb.append(i).append(' ');
            if (!train.attribute(i).isNumeric()) {
                sb.append("nominal");
            } else {
                double[] c = cutPoints(f, i);
                if (c == null || c.length == 0) {
                    sb.append("all");
                } else {
                    WekaIO.appendDoubles(sb, c);
                }
            }
            sb.append('\n');
        }
        System.out.print(sb);
        System.err.println("#fit_s=" + times);
    }
}
