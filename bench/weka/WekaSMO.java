// Train Weka's SMO on one ARFF file and print its pairwise machines at full double precision
// (Double.toString round-trips exactly), one line per pair i < j of class indices:
//   i j b k:w_k,k:w_k,...
// with the nonzero weights w_k of Weka's sparse weight vector, k indexing the attributes of SMO's
// filtered data (the class attribute is the last). A pair without a machine (neither class in
// the training data) prints "i j none".
// Usage: java -cp weka.jar:. WekaSMO <train.arff> [SMO options...]
import java.util.Arrays;
import weka.classifiers.functions.SMO;
import weka.core.Instances;

public class WekaSMO {
    public static void main(String[] args) throws Exception {
        Instances train = WekaIO.read(args[0]);
        SMO smo = new SMO();
        smo.setOptions(Arrays.copyOfRange(args, 1, args.length));
        smo.buildClassifier(train);
        double[][][] sw = smo.sparseWeights();
        int[][][] si = smo.sparseIndices();
        double[][] bias = smo.bias();
        int k = smo.numClassAttributeValues();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                sb.append(i).append(' ').append(j).append(' ');
                if (sw[i][j] == null) {
                    sb.append("none\n");
                    continue;
                }
                sb.append(Double.toString(bias[i][j])).append(' ');
                for (int p = 0; p < sw[i][j].length; p++) {
                    if (p > 0) sb.append(',');
                    sb.append(si[i][j][p]).append(':').append(Double.toString(sw[i][j][p]));
                }
                sb.append('\n');
            }
        }
        System.out.print(sb);
    }
}
