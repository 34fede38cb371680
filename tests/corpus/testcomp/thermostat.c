/* A Test-Comp style task with a reachable error: a thermostat reads up to
 * four commands (a short), each with a temperature (a double), and a
 * heater that is switched on twice in a row with the temperature above
 * 30.5 degrees is an error. */
extern void abort(void);
extern short __VERIFIER_nondet_short(void);
extern double __VERIFIER_nondet_double(void);

void reach_error(void) { abort(); }

int main(void)
{
    int heater = 0, steps;

    for (steps = 0; steps < 4; steps++) {
        short command = __VERIFIER_nondet_short();
        double temperature;

        if (command == 0)
            break;
        temperature = __VERIFIER_nondet_double();
        if (temperature != temperature)
            return 2; /* NaN: the sensor failed */
        if (command == 1) {
            if (heater && temperature > 30.5)
                reach_error();
            heater = 1;
        } else if (command == 2) {
            heater = 0;
        } else if (temperature < -40.0) {
            return 1;
        }
    }
    return heater;
}
