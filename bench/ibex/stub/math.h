double modf(double x, double *ip);
