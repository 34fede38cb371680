/* Self-test of intset.c through its API (bug-free copy), against a plain
 * sorted array as the reference model. */
#include "selftest.h"
#include "../intset.c"

#define MODEL_MAX 512

static int64_t model[MODEL_MAX];
static uint32_t model_len;

static int model_find(int64_t v, uint32_t *pos)
{
    uint32_t i;

    for (i = 0; i < model_len && model[i] < v; i++)
        continue;
    *pos = i;
    return i < model_len && model[i] == v;
}

static void model_add(int64_t v)
{
    uint32_t pos;

    if (model_find(v, &pos))
        return;
    memmove(model + pos + 1, model + pos, (model_len - pos) * sizeof *model);
    model[pos] = v;
    model_len++;
}

static void model_remove(int64_t v)
{
    uint32_t pos;

    if (!model_find(v, &pos))
        return;
    memmove(model + pos, model + pos + 1, (model_len - pos - 1) * sizeof *model);
    model_len--;
}

static uint32_t widest(void)
{
    uint32_t i, enc = 2;

    for (i = 0; i < model_len; i++)
        if (intset_value_encoding(model[i]) > enc)
            enc = intset_value_encoding(model[i]);
    return enc;
}

/* The set equals the model. */
static void expect_model(const struct intset *is, uint32_t min_encoding)
{
    uint32_t i;
    int64_t v;

    CHECK(intset_is_valid(is));
    CHECK(intset_len(is) == model_len);
    CHECK(is->encoding >= widest() && is->encoding >= min_encoding);
    CHECK(intset_blob_len(is) == sizeof(struct intset) + (size_t)model_len * is->encoding);
    for (i = 0; i < model_len; i++) {
        CHECK(intset_get(is, i, &v) == 1 && v == model[i]);
        CHECK(intset_find(is, model[i]));
    }
    CHECK(intset_get(is, model_len, &v) == 0);
    CHECK(intset_get(is, UINT32_MAX, &v) == 0);
}

static int64_t random_value(void)
{
    switch (st_random() % 4) {
    case 0: return (int64_t)(st_random() % 41) - 20;
    case 1: return (int64_t)(st_random() % 200001) - 100000;
    case 2: return ((int64_t)(int32_t)st_random()) * 7;
    default: return (int64_t)(((uint64_t)st_random() << 32) | st_random());
    }
}

int main(void)
{
    struct intset *is;
    int done, round;
    int64_t v;
    uint32_t enc;
    static const int64_t edges[] = {
        0, 1, -1, INT16_MAX, INT16_MIN, INT16_MAX + 1, INT16_MIN - 1, INT32_MAX,
        INT32_MIN, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1, INT64_MAX, INT64_MIN,
    };
    size_t k;

    st_fail_after = 0;
    CHECK(intset_new() == NULL);
    is = intset_new();
    CHECK(is != NULL && is->encoding == 2);
    expect_model(is, 2);
    CHECK(!intset_find(is, 0) && !intset_find(is, INT64_MAX));
    is = intset_remove(is, 5, &done);
    CHECK(done == 0);

    /* Each encoding step, both ends. */
    for (k = 0; k < sizeof edges / sizeof *edges; k++) {
        is = intset_add(is, edges[k], &done);
        CHECK(done == 1);
        model_add(edges[k]);
        expect_model(is, 2);
        is = intset_add(is, edges[k], &done);
        CHECK(done == 0);
    }
    CHECK(is->encoding == 8);
    for (k = 0; k < sizeof edges / sizeof *edges; k++) {
        is = intset_remove(is, edges[k], &done);
        CHECK(done == 1);
        model_remove(edges[k]);
        expect_model(is, 8); /* the encoding never shrinks */
    }
    intset_free(is);

    /* Out of memory in a plain insertion and in an upgrade: unchanged. */
    is = intset_new();
    is = intset_add(is, 7, &done);
    model_add(7);
    st_fail_after = 0;
    is = intset_add(is, 8, &done);
    CHECK(done == 0);
    expect_model(is, 2);
    st_fail_after = 0;
    is = intset_add(is, 1000000, &done);
    CHECK(done == 0 && is->encoding == 2);
    expect_model(is, 2);
    st_fail_after = 0; /* shrinking is allowed to fail */
    is = intset_remove(is, 7, &done);
    CHECK(done == 1);
    model_remove(7);
    expect_model(is, 2);
    intset_free(is);
    intset_free(NULL);

    /* Random operations against the model, with occasional failures. */
    for (round = 0; round < 40; round++) {
        is = intset_new();
        model_len = 0;
        enc = 2;
        for (k = 0; k < 300; k++) {
            int failing = st_random() % 17 == 0, present;
            uint32_t pos;

            v = random_value();
            if (st_random() % 3 == 0 && model_len > 0)
                v = model[st_random() % model_len];
            present = model_find(v, &pos);
            CHECK(intset_find(is, v) == present);
            if (failing)
                st_fail_after = 0;
            if (present && st_random() % 2 == 0) {
                is = intset_remove(is, v, &done);
                CHECK(done == 1);
                model_remove(v);
            } else if (model_len < MODEL_MAX) {
                is = intset_add(is, v, &done);
                CHECK(done == (!present && !failing));
                if (done)
                    model_add(v);
            }
            st_fail_after = -1;
            if (is->encoding > enc)
                enc = is->encoding;
            if (k % 25 == 0)
                expect_model(is, enc);
        }
        expect_model(is, enc);
        intset_free(is);
    }
    return st_finish("intset");
}
