int half(int v)
{
    return v / 2 +;
}
