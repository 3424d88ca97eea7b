// Train a Weka classifier on one ARFF file, print class distributions for another with full
// double precision (Double.toString round-trips exactly), plus training and testing times.
// Usage: java -cp weka.jar:. WekaProba <train.arff> <test.arff> <classifier class> [options...]
// A classifier class may be prefixed "filter:<filter class> <filter options> --" to apply a batch filter
// (e.g. supervised Discretize) fitted on the training file only.
// Optional tokens before that: "measures:<name>,<name>" prints the trained model's additional measures
// (AdditionalMeasureProducer, e.g. J48's measureNumLeaves,measureTreeSize) on a "#measures" stderr line;
// "model:<path>" writes the trained model's toString() to <path>.
import java.io.FileWriter;
import java.util.Arrays;
import weka.classifiers.Classifier;
import weka.core.AdditionalMeasureProducer;
import weka.core.Instances;

public class WekaProba {
    public static void main(String[] args) throws Exception {
        Instances[] data = {WekaIO.read(args[0]), WekaIO.read(args[1])};
        int i = 2;
        String[] measures = new String[0];
        String modelPath = null;
        while (args[i].startsWith("measures:") || args[i].startsWith("model:")) {
            if (args[i].startsWith("measures:")) measures = args[i].substring(9).split(",");
            else modelPath = args[i].substring(6);
            i++;
        }
        long f0 = System.nanoTime();
        i = WekaIO.filter(args, i, data);
        Instances train = data[0], test = data[1];
        long f1 = System.nanoTime();
        String name = args[i];
        String[] opts = Arrays.copyOfRange(args, i + 1, args.length);
        Classifier c = Classifier.forName(name, opts);
        long t0 = System.nanoTime();
        c.buildClassifier(train);
        long t1 = System.nanoTime();
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < test.numInstances(); k++) {
            double[] d = c.distributionForInstance(test.instance(k));
            WekaIO.appendDoubles(sb, d);
            sb.append('\n');
        }
        long t2 = System.nanoTime();
        System.out.print(sb);
        if (modelPath != null) {
            FileWriter w = new FileWriter(modelPath);
            w.write(c.toString());
            w.close();
        }
        if (measures.length > 0) {
            StringBuilder m = new StringBuilder("#measures");
            for (String measure : measures) {
                m.append(' ').append(measure).append('=').append(((AdditionalMeasureProducer) c).getMeasure(measure));
            }
            System.err.println(m);
        }
        System.err.println("#filter_s=" + (f1 - f0) / 1e9 + " train_s=" + (t1 - t0) / 1e9 + " test_s=" + (t2 - t1) / 1e9);
    }
}
