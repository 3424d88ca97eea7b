// Train Weka's BayesNet on one ARFF file; print the learned structure and the class distributions
// of another ARFF file at full double precision.
// Usage: java -cp weka.jar:. WekaBayesNet <train.arff> <test.arff> [filter:<class> <opts> --] <BayesNet options...>
// Output: one line "P <node> <parent> <parent> ..." per node (node and parent indices are attribute
// indices of the (filtered) training data, the class last), then one line "D p_0,p_1,..." per test row.
import java.io.BufferedReader;
import java.io.FileReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import weka.classifiers.bayes.BayesNet;
import weka.core.Instances;
import weka.core.Utils;
import weka.filters.Filter;

public class WekaBayesNet {
    static Instances read(String path) throws Exception {
        BufferedReader r = new BufferedReader(new FileReader(path));
        Instances d = new Instances(r);
        r.close();
        d.setClassIndex(d.numAttributes() - 1);
        return d;
    }

    public static void main(String[] args) throws Exception {
        Instances train = read(args[0]);
        Instances test = read(args[1]);
        int i = 2;
        if (i < args.length && args[i].startsWith("filter:")) {
            String filterName = args[i].substring(7);
            List<String> fopts = new ArrayList<String>();
            i++;
            while (!args[i].equals("--")) { fopts.add(args[i]); i++; }
            i++;
            Filter f = (Filter) Utils.forName(Filter.class, filterName, fopts.toArray(new String[0]));
            f.setInputFormat(train);
            train = Filter.useFilter(train, f);
            test = Filter.useFilter(test, f);
        }
        BayesNet bn = new BayesNet();
        bn.setOptions(Arrays.copyOfRange(args, i, args.length));
        long t0 = System.nanoTime();
        bn.buildClassifier(train);
        long t1 = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        for (int node = 0; node < bn.getNrOfNodes(); node++) {
            sb.append("P ").append(node);
            for (int p = 0; p < bn.getNrOfParents(node); p++) sb.append(' ').append(bn.getParent(node, p));
            sb.append('\n');
        }
        for (int k = 0; k < test.numInstances(); k++) {
            double[] d = bn.distributionForInstance(test.instance(k));
            sb.append("D ");
            for (int j = 0; j < d.length; j++) {
                if (j > 0) sb.append(',');
                sb.append(Double.toString(d[j]));
            }
            sb.append('\n');
        }
        long t2 = System.nanoTime();
        System.out.print(sb);
        System.err.println("#train_s=" + (t1 - t0) / 1e9 + " test_s=" + (t2 - t1) / 1e9);
    }
}
