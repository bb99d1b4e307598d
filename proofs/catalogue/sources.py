"""The lecture notes and papers the catalogue checks, cited so that a reader can find them.

A theorem's ``Source.note`` is one of the keys below; ``TITLES`` gives the citation every report,
page and document prints (author, title, course or venue, year).  The note keys name the copies
the suite was checked against; a reader finds the notes by their citation."""
BLUM_NOTES = "000_16150bb9182f2f7b.txt"      # Blum, lecture notes: Perceptron and Winnow
BLUM_859 = "001_fa928e0d1b9f2c63.txt"        # Blum, 15-859(A) lecture 01/30/06: perceptron, kernels, margins
BIAS_NOTES = "002_79d414358275f645.txt"      # notes on the perceptron with bias (Block & Novikoff, SGD remark)
LIN_SLIDES = "003_63452f4d226ffa36.txt"      # Lin (Tamkang) slides: separable and inseparable data, kernels
DAUME_CH3 = "004_24a188c3a7507a80.txt"       # Daume, A Course in Machine Learning, ch. 3

TITLES = {
    BLUM_NOTES: "A. Blum, lecture notes: The Perceptron and Winnow algorithms, Carnegie Mellon University",
    BLUM_859: "A. Blum, 15-859(A) Machine Learning Theory, lecture of 30 January 2006: The Perceptron algorithm, "
              "kernels and margins, Carnegie Mellon University, 2006",
    BIAS_NOTES: "Lecture notes: The perceptron (with a bias term; Block and Novikoff's theorem; the perceptron as "
                "stochastic subgradient descent), author not stated",
    LIN_SLIDES: "J. C.-C. Lin, The Perceptron Algorithm: Perfectly Separable and Inseparable Data, slides for Data "
                "Science Theory and Practices, Tamkang University, 31 May 2021",
    DAUME_CH3: "H. Daumé III, A Course in Machine Learning, chapter 3: The Perceptron, version 0.99, 2017 "
               "(ciml.info)",
    "": "not in the notes (this suite)",
}
# how a table cell names a lecture note (the entry's page gives the whole citation)
SHORT = {
    BLUM_NOTES: "Blum, Perceptron and Winnow notes",
    BLUM_859: "Blum, 15-859(A) 30 Jan 2006",
    BIAS_NOTES: "notes on the perceptron with bias",
    LIN_SLIDES: "Lin, perceptron slides (Tamkang 2021)",
    DAUME_CH3: "Daumé, CIML ch. 3",
}

# The online-learning unit: papers and books, cited by reference
LITTLESTONE_WARMUTH = "Littlestone & Warmuth 1994"
FREUND_SCHAPIRE = "Freund & Schapire 1999"
CRAMMER_PA = "Crammer et al. 2006"
SHALEV_SHWARTZ = "Shalev-Shwartz 2012"
CESA_BIANCHI_LUGOSI = "Cesa-Bianchi & Lugosi 2006"
LITTLESTONE_1988 = "Littlestone 1988"
TITLES.update({
    LITTLESTONE_1988: "N. Littlestone, Learning Quickly When Irrelevant Attributes Abound: A New Linear-threshold "
                      "Algorithm, Machine Learning 2(4), 1988",
    LITTLESTONE_WARMUTH: "N. Littlestone and M. K. Warmuth, The Weighted Majority Algorithm, Information and "
                         "Computation 108(2), 1994",
    FREUND_SCHAPIRE: "Y. Freund and R. E. Schapire, Large margin classification using the perceptron algorithm, "
                     "Machine Learning 37(3), 1999",
    CRAMMER_PA: "K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz and Y. Singer, Online Passive-Aggressive "
                "Algorithms, JMLR 7, 2006",
    SHALEV_SHWARTZ: "S. Shalev-Shwartz, Online Learning and Online Convex Optimization, Foundations and Trends in "
                    "Machine Learning 4(2), 2012",
    CESA_BIANCHI_LUGOSI: "N. Cesa-Bianchi and G. Lugosi, Prediction, Learning, and Games, Cambridge University "
                         "Press 2006, ch. 2",
})

FREUND_SCHAPIRE_1997 = "Freund & Schapire 1997"
TITLES[FREUND_SCHAPIRE_1997] = ("Y. Freund and R. E. Schapire, A decision-theoretic generalization of on-line learning "
                                "and an application to boosting, Journal of Computer and System Sciences 55(1), 1997")

CRAMMER_SINGER_2003 = "Crammer & Singer 2003"
COLLINS_2002 = "Collins 2002"
TITLES[CRAMMER_SINGER_2003] = ("K. Crammer and Y. Singer, Ultraconservative Online Algorithms for Multiclass Problems, "
                               "JMLR 3, 2003")
TITLES[COLLINS_2002] = ("M. Collins, Discriminative Training Methods for Hidden Markov Models: Theory and Experiments "
                        "with Perceptron Algorithms, EMNLP 2002")

KIVINEN_WARMUTH_AUER = "Kivinen, Warmuth & Auer 1997"
TITLES[KIVINEN_WARMUTH_AUER] = ("J. Kivinen, M. K. Warmuth and P. Auer, The Perceptron algorithm versus Winnow: linear "
                                "versus logarithmic mistake bounds when few input variables are relevant, Artificial "
                                "Intelligence 97(1-2), 1997")

CESA_BIANCHI_CONCONI_GENTILE = "Cesa-Bianchi, Conconi & Gentile 2005"
TITLES[CESA_BIANCHI_CONCONI_GENTILE] = ("N. Cesa-Bianchi, A. Conconi and C. Gentile, A second-order perceptron algorithm, "
                                        "SIAM Journal on Computing 34(3), 2005")
